// Unit tests for src/base/json.cpp: parse_object accepts one JSON object and rejects every other body
// with 400/10030 and the text code that names the problem; write() is compact UTF-8.
#include "base/errors.h"
#include "base/json.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::ApiError;
using cms::Code;
using cms::json::parse_object;
using cms::json::write;

namespace {

constexpr int k_depth = 32;

int num(Code code) {
    return static_cast<int>(code);
}

// The text code of the ApiError parse_object throws for body, after checking status and code;
// fails the test when the body is accepted.
int rejection(const std::string &body, int max_depth = k_depth) {
    try {
        parse_object(body, max_depth);
    } catch (const ApiError &e) {
        CPPUNIT_ASSERT_EQUAL_MESSAGE(body, 400, e.status);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(body, num(Code::parameter), num(e.code));
        return num(e.text_code);
    }
    CPPUNIT_FAIL("parse_object accepted: " + body);
}

// levels objects nested in each other, the innermost empty: {"a":{"a":{}}} is 3.
std::string nested_objects(int levels) {
    std::string body = "{}";
    for (int i = 1; i < levels; ++i)
        body = "{\"a\":" + body + "}";
    return body;
}

// An object holding levels - 1 nested arrays around a number: {"a":[[1]]} is 3 containers.
std::string nested_arrays_around_scalar(int levels) {
    return "{\"a\":" + std::string(levels - 1, '[') + "1" + std::string(levels - 1, ']') + "}";
}

} // namespace

class JsonTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(JsonTest);
    CPPUNIT_TEST(object_is_accepted_with_its_members);
    CPPUNIT_TEST(surrounding_whitespace_is_accepted);
    CPPUNIT_TEST(surrogate_pair_escape_becomes_one_character);
    CPPUNIT_TEST(empty_body_is_body_empty);
    CPPUNIT_TEST(whitespace_body_is_body_empty);
    CPPUNIT_TEST(invalid_utf8_is_body_not_utf8);
    CPPUNIT_TEST(syntax_error_is_json_malformed);
    CPPUNIT_TEST(number_with_leading_zero_is_json_malformed);
    CPPUNIT_TEST(numbers_outside_the_grammar_are_json_malformed);
    CPPUNIT_TEST(numbers_of_the_grammar_are_accepted);
    CPPUNIT_TEST(raw_control_character_in_a_string_is_json_malformed);
    CPPUNIT_TEST(nul_byte_after_the_object_is_json_malformed);
    CPPUNIT_TEST(trailing_garbage_is_json_malformed);
    CPPUNIT_TEST(comment_outside_the_object_is_json_malformed);
    CPPUNIT_TEST(comment_inside_the_object_is_json_malformed);
    CPPUNIT_TEST(duplicate_key_is_json_duplicate_key);
    CPPUNIT_TEST(duplicate_key_in_nested_object_is_json_duplicate_key);
    CPPUNIT_TEST(max_depth_nested_empty_objects_pass_one_more_is_too_deep);
    CPPUNIT_TEST(scalar_at_the_bottom_counts_as_a_level);
    CPPUNIT_TEST(very_deep_nesting_is_too_deep);
    CPPUNIT_TEST(top_level_array_is_json_not_object);
    CPPUNIT_TEST(top_level_scalar_is_json_not_object);
    CPPUNIT_TEST(lone_low_surrogate_escape_is_body_not_utf8);
    CPPUNIT_TEST(lone_low_surrogate_escape_in_key_is_body_not_utf8);
    CPPUNIT_TEST(escaped_nul_in_value_is_body_not_utf8);
    CPPUNIT_TEST(escaped_nul_in_key_is_body_not_utf8);
    CPPUNIT_TEST(write_is_compact_utf8_without_newline);
    CPPUNIT_TEST(write_escapes_quotes_and_control_characters);
    CPPUNIT_TEST_SUITE_END();

  public:
    void object_is_accepted_with_its_members() {
        Json::Value v = parse_object(R"({"title":"汉","count":2,"tags":["a"],"x":null})", k_depth);
        CPPUNIT_ASSERT(v.isObject());
        CPPUNIT_ASSERT_EQUAL(std::string("汉"), v["title"].asString());
        CPPUNIT_ASSERT_EQUAL(2, v["count"].asInt());
        CPPUNIT_ASSERT_EQUAL(std::string("a"), v["tags"][0].asString());
        CPPUNIT_ASSERT(v.isMember("x"));
    }

    void surrounding_whitespace_is_accepted() {
        CPPUNIT_ASSERT(parse_object(" \r\n\t{}\n ", k_depth).isObject());
    }

    void surrogate_pair_escape_becomes_one_character() {
        Json::Value v = parse_object(R"({"e":"\ud83d\ude00"})", k_depth);
        CPPUNIT_ASSERT_EQUAL(std::string("😀"), v["e"].asString());
    }

    void empty_body_is_body_empty() { CPPUNIT_ASSERT_EQUAL(num(Code::body_empty), rejection("")); }

    void whitespace_body_is_body_empty() {
        CPPUNIT_ASSERT_EQUAL(num(Code::body_empty), rejection(" \t\r\n "));
    }

    void invalid_utf8_is_body_not_utf8() {
        CPPUNIT_ASSERT_EQUAL(num(Code::body_not_utf8), rejection("{\"a\":\"\xff\"}"));
        CPPUNIT_ASSERT_EQUAL(num(Code::body_not_utf8), rejection("{\"\xe6\xb1\":1}"));
        CPPUNIT_ASSERT_EQUAL(num(Code::body_not_utf8), rejection("{\"a\":\"\xed\xa0\x80\"}"));
    }

    void syntax_error_is_json_malformed() {
        for (const char *body :
             {"{", "}", R"({"a":})", R"({"a" 1})", R"({'a':1})", "{a:1}", R"({"a":1,})",
              R"({"a":[1,]})", R"({"a":tru})", R"({"a":"\x"})", "x"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(body, num(Code::json_malformed), rejection(body));
    }

    void number_with_leading_zero_is_json_malformed() {
        // RFC 8259 section 6: a leading zero is not part of the number grammar.
        CPPUNIT_ASSERT_EQUAL(num(Code::json_malformed), rejection(R"({"a":01})"));
    }

    void numbers_outside_the_grammar_are_json_malformed() {
        for (const char *number : {"-", "1.", "+1", "-.5", ".5", "1.e5", "1e", "1e+", "--1", "1.5.3"})
            CPPUNIT_ASSERT_EQUAL(num(Code::json_malformed),
                                 rejection(std::string(R"({"a":)") + number + "}"));
    }

    void numbers_of_the_grammar_are_accepted() {
        for (const char *number : {"0", "-0", "10", "1.05", "-0.5", "1e5", "1E+05", "2.5e-3"})
            CPPUNIT_ASSERT_EQUAL(std::string("a"),
                                 parse_object(std::string(R"({"a":)") + number + "}", k_depth)
                                     .getMemberNames()
                                     .at(0));
    }

    void raw_control_character_in_a_string_is_json_malformed() {
        // Inside a string a line break must be written \n (RFC 8259 section 7).
        CPPUNIT_ASSERT_EQUAL(num(Code::json_malformed), rejection("{\"a\":\"x\ny\"}"));
        CPPUNIT_ASSERT_EQUAL(num(Code::json_malformed), rejection("{\"a\":\"x\ty\"}"));
    }

    void nul_byte_after_the_object_is_json_malformed() {
        // jsoncpp stops at a NUL; what follows must not be ignored.
        CPPUNIT_ASSERT_EQUAL(num(Code::json_malformed),
                             rejection(std::string("{\"a\":1}\0garbage", 15)));
    }

    void trailing_garbage_is_json_malformed() {
        CPPUNIT_ASSERT_EQUAL(num(Code::json_malformed), rejection("{} x"));
        CPPUNIT_ASSERT_EQUAL(num(Code::json_malformed), rejection("{}{}"));
        CPPUNIT_ASSERT_EQUAL(num(Code::json_malformed), rejection("{},"));
    }

    void comment_outside_the_object_is_json_malformed() {
        for (const char *body : {"/* c */{}", "// c\n{}", "{}/* c */", "{} // c"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(body, num(Code::json_malformed), rejection(body));
    }

    void comment_inside_the_object_is_json_malformed() {
        for (const char *body : {"{/* c */}", "{// c\n}", R"({"a":1 /* c */})",
                                 "{\"a\":1, // c\n\"b\":2}", R"({"a":[1 /* c */]})"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(body, num(Code::json_malformed), rejection(body));
    }

    void duplicate_key_is_json_duplicate_key() {
        CPPUNIT_ASSERT_EQUAL(num(Code::json_duplicate_key), rejection(R"({"a":1,"a":2})"));
    }

    void duplicate_key_in_nested_object_is_json_duplicate_key() {
        CPPUNIT_ASSERT_EQUAL(num(Code::json_duplicate_key),
                             rejection(R"({"a":{"b":1,"c":2,"b":3}})"));
    }

    // Observed boundary: max_depth N counts nested values, so N nested objects whose innermost
    // is empty pass and N + 1 are too deep.
    void max_depth_nested_empty_objects_pass_one_more_is_too_deep() {
        for (int n : {2, 5, k_depth}) {
            std::string at_limit = nested_objects(n);
            CPPUNIT_ASSERT_MESSAGE(at_limit, parse_object(at_limit, n).isObject());
            CPPUNIT_ASSERT_EQUAL_MESSAGE(at_limit, num(Code::json_too_deep),
                                         rejection(nested_objects(n + 1), n));
        }
    }

    // A scalar is a value too: N - 1 containers around a number pass, N containers do not.
    void scalar_at_the_bottom_counts_as_a_level() {
        for (int n : {2, 5, k_depth}) {
            std::string fits = nested_arrays_around_scalar(n - 1);
            CPPUNIT_ASSERT_MESSAGE(fits, parse_object(fits, n).isObject());
            CPPUNIT_ASSERT_EQUAL_MESSAGE(fits, num(Code::json_too_deep),
                                         rejection(nested_arrays_around_scalar(n), n));
        }
    }

    void very_deep_nesting_is_too_deep() {
        std::string body = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
        CPPUNIT_ASSERT_EQUAL(num(Code::json_too_deep), rejection(body));
    }

    void top_level_array_is_json_not_object() {
        for (const char *body : {"[1]", "[]", "[{}]"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(body, num(Code::json_not_object), rejection(body));
    }

    void top_level_scalar_is_json_not_object() {
        for (const char *body : {"1", "-2.5", "\"s\"", "null", "true"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(body, num(Code::json_not_object), rejection(body));
    }

    void lone_low_surrogate_escape_is_body_not_utf8() {
        CPPUNIT_ASSERT_EQUAL(num(Code::body_not_utf8), rejection(R"({"a":"\udc00"})"));
        CPPUNIT_ASSERT_EQUAL(num(Code::body_not_utf8), rejection(R"({"a":["x","\udc00"]})"));
    }

    void lone_low_surrogate_escape_in_key_is_body_not_utf8() {
        CPPUNIT_ASSERT_EQUAL(num(Code::body_not_utf8), rejection(R"({"\udc00":1})"));
    }

    void escaped_nul_in_value_is_body_not_utf8() {
        CPPUNIT_ASSERT_EQUAL(num(Code::body_not_utf8), rejection(R"({"a":"\u0000"})"));
        CPPUNIT_ASSERT_EQUAL(num(Code::body_not_utf8), rejection(R"({"a":{"b":"x\u0000y"}})"));
    }

    void escaped_nul_in_key_is_body_not_utf8() {
        CPPUNIT_ASSERT_EQUAL(num(Code::body_not_utf8), rejection(R"({"a\u0000b":1})"));
    }

    void write_is_compact_utf8_without_newline() {
        Json::Value v(Json::objectValue);
        v["message"] = "汉😀";
        v["code"] = 10022;
        v["list"].append(1);
        v["list"].append(Json::Value(Json::objectValue));
        CPPUNIT_ASSERT_EQUAL(std::string(R"({"code":10022,"list":[1,{}],"message":"汉😀"})"),
                             write(v));
    }

    void write_escapes_quotes_and_control_characters() {
        Json::Value v(Json::objectValue);
        v["t"] = "a\"b\\c\nd";
        CPPUNIT_ASSERT_EQUAL(std::string(R"({"t":"a\"b\\c\nd"})"), write(v));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(JsonTest);
