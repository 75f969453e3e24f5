// Unit tests for src/base/base64.cpp: RFC 4648 vectors, round trips, and strict rejection of every
// spelling a lenient decoder would accept.
#include "base/base64.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::base64::decode_std;
using cms::base64::decode_url;
using cms::base64::encode_std;
using cms::base64::encode_url;

class Base64Test : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(Base64Test);
    CPPUNIT_TEST(encode_url_matches_rfc4648_vectors_without_padding);
    CPPUNIT_TEST(encode_url_uses_dash_and_underscore);
    CPPUNIT_TEST(url_round_trip_keeps_every_byte_at_every_length);
    CPPUNIT_TEST(url_round_trip_survives_input_longer_than_one_chunk);
    CPPUNIT_TEST(decode_url_reads_unpadded_text);
    CPPUNIT_TEST(decode_url_accepts_empty_text);
    CPPUNIT_TEST(decode_url_rejects_padding);
    CPPUNIT_TEST(decode_url_rejects_standard_alphabet_characters);
    CPPUNIT_TEST(decode_url_rejects_whitespace_and_other_bytes);
    CPPUNIT_TEST(decode_url_rejects_length_one_mod_four);
    CPPUNIT_TEST(decode_url_rejects_nonzero_unused_bits);
    CPPUNIT_TEST(encode_std_matches_rfc4648_vectors_with_padding);
    CPPUNIT_TEST(std_round_trip_keeps_every_byte_at_every_length);
    CPPUNIT_TEST(decode_std_reads_padded_text);
    CPPUNIT_TEST(decode_std_reads_plus_and_slash);
    CPPUNIT_TEST(decode_std_rejects_missing_padding);
    CPPUNIT_TEST(decode_std_rejects_url_alphabet_characters);
    CPPUNIT_TEST(decode_std_rejects_misplaced_or_excess_padding);
    CPPUNIT_TEST(decode_std_rejects_whitespace);
    CPPUNIT_TEST(decode_std_rejects_nonzero_unused_bits);
    CPPUNIT_TEST_SUITE_END();

  public:
    void encode_url_matches_rfc4648_vectors_without_padding() {
        CPPUNIT_ASSERT_EQUAL(std::string(""), encode_url(""));
        CPPUNIT_ASSERT_EQUAL(std::string("Zg"), encode_url("f"));
        CPPUNIT_ASSERT_EQUAL(std::string("Zm8"), encode_url("fo"));
        CPPUNIT_ASSERT_EQUAL(std::string("Zm9v"), encode_url("foo"));
        CPPUNIT_ASSERT_EQUAL(std::string("Zm9vYg"), encode_url("foob"));
        CPPUNIT_ASSERT_EQUAL(std::string("Zm9vYmE"), encode_url("fooba"));
        CPPUNIT_ASSERT_EQUAL(std::string("Zm9vYmFy"), encode_url("foobar"));
    }

    void encode_url_uses_dash_and_underscore() {
        // Standard base64 of these bytes is "+/8=".
        CPPUNIT_ASSERT_EQUAL(std::string("-_8"), encode_url("\xfb\xff"));
    }

    void encode_std_matches_rfc4648_vectors_with_padding() {
        CPPUNIT_ASSERT_EQUAL(std::string(""), encode_std(""));
        CPPUNIT_ASSERT_EQUAL(std::string("Zg=="), encode_std("f"));
        CPPUNIT_ASSERT_EQUAL(std::string("Zm8="), encode_std("fo"));
        CPPUNIT_ASSERT_EQUAL(std::string("Zm9vYmFy"), encode_std("foobar"));
        CPPUNIT_ASSERT_EQUAL(std::string("+/8="), encode_std("\xfb\xff"));
    }

    void std_round_trip_keeps_every_byte_at_every_length() {
        std::string bytes;
        for (int i = 0; i < 300; ++i) {
            CPPUNIT_ASSERT_EQUAL(bytes, decode_std(encode_std(bytes)).value());
            bytes.push_back(static_cast<char>(i * 7 + 3));
        }
    }

    void url_round_trip_keeps_every_byte_at_every_length() {
        std::string bytes;
        for (int i = 0; i < 300; ++i) {
            CPPUNIT_ASSERT_EQUAL(bytes, decode_url(encode_url(bytes)).value());
            bytes.push_back(static_cast<char>(i * 7 + 3));
        }
    }

    void url_round_trip_survives_input_longer_than_one_chunk() {
        std::string bytes;
        for (int i = 0; i < 100000; ++i)
            bytes.push_back(static_cast<char>(i % 251));
        std::string text = encode_url(bytes);
        CPPUNIT_ASSERT_EQUAL(std::size_t(133334), text.size());
        CPPUNIT_ASSERT_EQUAL(bytes, decode_url(text).value());
    }

    void decode_url_reads_unpadded_text() {
        CPPUNIT_ASSERT_EQUAL(std::string("foob"), decode_url("Zm9vYg").value());
        CPPUNIT_ASSERT_EQUAL(std::string("fooba"), decode_url("Zm9vYmE").value());
        CPPUNIT_ASSERT_EQUAL(std::string("\xfb\xff"), decode_url("-_8").value());
    }

    void decode_url_accepts_empty_text() {
        CPPUNIT_ASSERT_EQUAL(std::string(""), decode_url("").value());
    }

    void decode_url_rejects_padding() {
        CPPUNIT_ASSERT(!decode_url("Zg==").has_value());
        CPPUNIT_ASSERT(!decode_url("Zm8=").has_value());
    }

    void decode_url_rejects_standard_alphabet_characters() {
        CPPUNIT_ASSERT(!decode_url("+_8").has_value());
        CPPUNIT_ASSERT(!decode_url("-/8").has_value());
    }

    void decode_url_rejects_whitespace_and_other_bytes() {
        CPPUNIT_ASSERT(!decode_url("Zm9v Yg").has_value());
        CPPUNIT_ASSERT(!decode_url("Zm9vYg\n").has_value());
        CPPUNIT_ASSERT(!decode_url(std::string("Zm9v\0Yg", 7)).has_value());
        CPPUNIT_ASSERT(!decode_url("Zm9.Yg").has_value());
    }

    void decode_url_rejects_length_one_mod_four() {
        CPPUNIT_ASSERT(!decode_url("Z").has_value());
        CPPUNIT_ASSERT(!decode_url("Zm9vY").has_value());
    }

    void decode_url_rejects_nonzero_unused_bits() {
        // "Zg" is "f"; "Zh" differs only in bits that carry no data.
        CPPUNIT_ASSERT(!decode_url("Zh").has_value());
        CPPUNIT_ASSERT(!decode_url("Zm9").has_value());
    }

    void decode_std_reads_padded_text() {
        CPPUNIT_ASSERT_EQUAL(std::string(""), decode_std("").value());
        CPPUNIT_ASSERT_EQUAL(std::string("f"), decode_std("Zg==").value());
        CPPUNIT_ASSERT_EQUAL(std::string("fo"), decode_std("Zm8=").value());
        CPPUNIT_ASSERT_EQUAL(std::string("foobar"), decode_std("Zm9vYmFy").value());
    }

    void decode_std_reads_plus_and_slash() {
        CPPUNIT_ASSERT_EQUAL(std::string("\xfb\xff"), decode_std("+/8=").value());
    }

    void decode_std_rejects_missing_padding() {
        CPPUNIT_ASSERT(!decode_std("Zg").has_value());
        CPPUNIT_ASSERT(!decode_std("Zm8").has_value());
    }

    void decode_std_rejects_url_alphabet_characters() {
        CPPUNIT_ASSERT(!decode_std("-_8=").has_value());
    }

    void decode_std_rejects_misplaced_or_excess_padding() {
        CPPUNIT_ASSERT(!decode_std("Z===").has_value());
        CPPUNIT_ASSERT(!decode_std("====").has_value());
        CPPUNIT_ASSERT(!decode_std("Zg==Zg==").has_value());
        CPPUNIT_ASSERT(!decode_std("Z=g=").has_value());
    }

    void decode_std_rejects_whitespace() {
        CPPUNIT_ASSERT(!decode_std("Zm9v\nZm9v").has_value());
        CPPUNIT_ASSERT(!decode_std(" Zm9v").has_value());
    }

    void decode_std_rejects_nonzero_unused_bits() {
        CPPUNIT_ASSERT(!decode_std("Zh==").has_value());
        CPPUNIT_ASSERT(!decode_std("Zm9=").has_value());
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(Base64Test);
