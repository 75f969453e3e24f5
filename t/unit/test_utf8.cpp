// Unit tests for src/base/utf8.cpp: characters of every length count as one, the first and last code
// points of each sequence length pass, and every ill-formed sequence of RFC 3629 is refused.
#include "base/utf8.h"

#include <cppunit/extensions/HelperMacros.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

using cms::utf8::length;
using cms::utf8::valid;
using cms::utf8::valid_text;

namespace {

// The character count of text; -1 when length() refuses it, so failures print plainly.
long count_of(const std::string &text) {
    std::optional<size_t> n = length(text);
    return n ? static_cast<long>(*n) : -1;
}

} // namespace

class Utf8Test : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(Utf8Test);
    CPPUNIT_TEST(empty_text_has_no_characters);
    CPPUNIT_TEST(ascii_counts_one_per_byte);
    CPPUNIT_TEST(nul_byte_is_a_character);
    CPPUNIT_TEST(two_byte_character_counts_as_one);
    CPPUNIT_TEST(cjk_character_counts_as_one);
    CPPUNIT_TEST(emoji_counts_as_one);
    CPPUNIT_TEST(mixed_text_counts_characters_not_bytes);
    CPPUNIT_TEST(first_and_last_code_points_of_each_length_are_valid);
    CPPUNIT_TEST(code_points_next_to_the_surrogates_are_valid);
    CPPUNIT_TEST(lone_continuation_byte_is_invalid);
    CPPUNIT_TEST(sequence_truncated_at_end_is_invalid);
    CPPUNIT_TEST(truncation_is_judged_by_the_view_not_the_bytes_after_it);
    CPPUNIT_TEST(sequence_truncated_before_ascii_is_invalid);
    CPPUNIT_TEST(bad_later_continuation_byte_is_invalid);
    CPPUNIT_TEST(overlong_two_byte_forms_are_invalid);
    CPPUNIT_TEST(overlong_three_byte_forms_are_invalid);
    CPPUNIT_TEST(overlong_four_byte_forms_are_invalid);
    CPPUNIT_TEST(surrogates_are_invalid);
    CPPUNIT_TEST(code_point_above_10ffff_is_invalid);
    CPPUNIT_TEST(bytes_f5_to_ff_are_invalid);
    CPPUNIT_TEST(invalid_byte_after_valid_text_is_invalid);
    CPPUNIT_TEST(valid_text_refuses_nul_and_ill_formed_bytes);
    CPPUNIT_TEST_SUITE_END();

  public:
    void empty_text_has_no_characters() {
        CPPUNIT_ASSERT_EQUAL(0L, count_of(""));
        CPPUNIT_ASSERT(valid(""));
    }

    void ascii_counts_one_per_byte() {
        CPPUNIT_ASSERT_EQUAL(11L, count_of("hello world"));
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\x7f"));
    }

    void nul_byte_is_a_character() { CPPUNIT_ASSERT_EQUAL(3L, count_of(std::string("a\0b", 3))); }

    void two_byte_character_counts_as_one() {
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\xc3\xa9")); // é
    }

    void cjk_character_counts_as_one() {
        CPPUNIT_ASSERT_EQUAL(std::size_t(3), std::string("汉").size());
        CPPUNIT_ASSERT_EQUAL(1L, count_of("汉"));
        CPPUNIT_ASSERT_EQUAL(4L, count_of("未找到书"));
    }

    void emoji_counts_as_one() {
        CPPUNIT_ASSERT_EQUAL(std::size_t(4), std::string("😀").size());
        CPPUNIT_ASSERT_EQUAL(1L, count_of("😀"));
        CPPUNIT_ASSERT_EQUAL(2L, count_of("😀😀"));
    }

    void mixed_text_counts_characters_not_bytes() {
        CPPUNIT_ASSERT_EQUAL(5L, count_of("a\xc3\xa9汉😀z"));
    }

    void first_and_last_code_points_of_each_length_are_valid() {
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\xc2\x80"));         // U+0080
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\xdf\xbf"));         // U+07FF
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\xe0\xa0\x80"));     // U+0800
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\xef\xbf\xbf"));     // U+FFFF
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\xf0\x90\x80\x80")); // U+10000
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\xf4\x8f\xbf\xbf")); // U+10FFFF
    }

    void code_points_next_to_the_surrogates_are_valid() {
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\xed\x9f\xbf")); // U+D7FF
        CPPUNIT_ASSERT_EQUAL(1L, count_of("\xee\x80\x80")); // U+E000
    }

    void lone_continuation_byte_is_invalid() {
        CPPUNIT_ASSERT(!valid("\x80"));
        CPPUNIT_ASSERT(!valid("\xbf"));
        CPPUNIT_ASSERT(!valid("a\x80z"));
        CPPUNIT_ASSERT_EQUAL(-1L, count_of("\x80"));
    }

    void sequence_truncated_at_end_is_invalid() {
        CPPUNIT_ASSERT(!valid("\xc3"));     // é without its second byte
        CPPUNIT_ASSERT(!valid("\xe6\xb1")); // 汉 without its last byte
        CPPUNIT_ASSERT(!valid("\xe6"));
        CPPUNIT_ASSERT(!valid("\xf0\x9f\x98")); // 😀 without its last byte
        CPPUNIT_ASSERT(!valid("ok\xf0\x9f"));
        CPPUNIT_ASSERT_EQUAL(-1L, count_of("abc\xe6\xb1"));
    }

    void truncation_is_judged_by_the_view_not_the_bytes_after_it() {
        // Each view ends inside a character that the next byte in memory would complete.
        const std::string cjk = "汉";
        const std::string emoji = "😀";
        CPPUNIT_ASSERT(!valid(std::string_view(cjk.data(), 2)));
        CPPUNIT_ASSERT(!valid(std::string_view(emoji.data(), 3)));
        CPPUNIT_ASSERT(!valid(std::string_view(emoji.data(), 1)));
    }

    void sequence_truncated_before_ascii_is_invalid() {
        CPPUNIT_ASSERT(!valid("\xc3z"));
        CPPUNIT_ASSERT(!valid("\xe6\xb1z"));
        CPPUNIT_ASSERT(!valid("\xf0\x9f\x98z"));
    }

    void bad_later_continuation_byte_is_invalid() {
        CPPUNIT_ASSERT(!valid("\xe6\xb1\xc0"));
        CPPUNIT_ASSERT(!valid("\xf0\x9f\x41\x80"));
        CPPUNIT_ASSERT(!valid("\xf0\x9f\x98\xff"));
    }

    void overlong_two_byte_forms_are_invalid() {
        CPPUNIT_ASSERT(!valid("\xc0\x80")); // NUL
        CPPUNIT_ASSERT(!valid("\xc0\xaf")); // '/'
        CPPUNIT_ASSERT(!valid("\xc1\xbf"));
    }

    void overlong_three_byte_forms_are_invalid() {
        CPPUNIT_ASSERT(!valid("\xe0\x80\x80"));
        CPPUNIT_ASSERT(!valid("\xe0\x9f\xbf")); // U+07FF in three bytes
    }

    void overlong_four_byte_forms_are_invalid() {
        CPPUNIT_ASSERT(!valid("\xf0\x80\x80\x80"));
        CPPUNIT_ASSERT(!valid("\xf0\x8f\xbf\xbf")); // U+FFFF in four bytes
    }

    void surrogates_are_invalid() {
        CPPUNIT_ASSERT(!valid("\xed\xa0\x80"));             // U+D800
        CPPUNIT_ASSERT(!valid("\xed\xbf\xbf"));             // U+DFFF
        CPPUNIT_ASSERT(!valid("\xed\xa0\xbd\xed\xb8\x80")); // 😀 as a CESU-8 pair
    }

    void code_point_above_10ffff_is_invalid() {
        CPPUNIT_ASSERT(!valid("\xf4\x90\x80\x80"));
        CPPUNIT_ASSERT(!valid("\xf4\xbf\xbf\xbf"));
    }

    void bytes_f5_to_ff_are_invalid() {
        for (int b = 0xf5; b <= 0xff; ++b) {
            std::string alone(1, static_cast<char>(b));
            std::string as_lead = alone + "\x80\x80\x80";
            CPPUNIT_ASSERT_MESSAGE("byte " + std::to_string(b), !valid(alone));
            CPPUNIT_ASSERT_MESSAGE("lead byte " + std::to_string(b), !valid(as_lead));
        }
    }

    void invalid_byte_after_valid_text_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(-1L, count_of("汉😀\xff"));
    }

    void valid_text_refuses_nul_and_ill_formed_bytes() {
        CPPUNIT_ASSERT(valid_text("三体 😀\n"));
        CPPUNIT_ASSERT(valid_text(""));
        CPPUNIT_ASSERT(valid(std::string("a\0b", 3)));
        CPPUNIT_ASSERT(!valid_text(std::string("a\0b", 3)));
        CPPUNIT_ASSERT(!valid_text("\xff"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(Utf8Test);
