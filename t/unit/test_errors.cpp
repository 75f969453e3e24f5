// Unit tests for src/errors.cpp: the message table parser (escapes, comments, malformed lines),
// text fallbacks, and the envelope that error_envelope builds from an ApiError.
#include "errors.h"

#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>
#include <string>

using cms::ApiError;
using cms::Code;
using cms::error_envelope;
using cms::make_envelope;
using cms::Messages;

namespace {

const std::string k_origin = "test.properties";

Messages parsed(const std::string &text) {
    return Messages::parse(text, k_origin);
}

// The what() of the error parsing text throws; fails the test when it does not throw.
std::string parse_error(const std::string &text) {
    try {
        parsed(text);
    } catch (const std::runtime_error &e) {
        return e.what();
    }
    CPPUNIT_FAIL("Messages::parse accepted: " + text);
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// A table with the texts of 10020 and 10030 but none for 10022.
Messages table_without_book_not_found() {
    return parsed("code-message[10020]=资源不存在\n"
                  "code-message[10030]=参数错误\n"
                  "code-message[10310]=请求体不是合法的JSON\n");
}

int num(Code code) {
    return static_cast<int>(code);
}

} // namespace

class ErrorsTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(ErrorsTest);
    CPPUNIT_TEST(parse_reads_code_and_utf8_text);
    CPPUNIT_TEST(parse_decodes_u_escapes);
    CPPUNIT_TEST(parse_decodes_surrogate_pair_escape_to_one_character);
    CPPUNIT_TEST(parse_skips_comments_and_blank_lines);
    CPPUNIT_TEST(parse_strips_carriage_returns);
    CPPUNIT_TEST(parse_allows_spaces_around_equals_sign);
    CPPUNIT_TEST(malformed_line_names_origin_and_line_number);
    CPPUNIT_TEST(non_numeric_code_is_malformed);
    CPPUNIT_TEST(bad_or_unpaired_escape_is_malformed);
    CPPUNIT_TEST(invalid_utf8_text_is_malformed);
    CPPUNIT_TEST(has_is_true_only_for_configured_codes);
    CPPUNIT_TEST(missing_code_falls_back_to_builtin_text);
    CPPUNIT_TEST(envelope_takes_code_and_text_from_table);
    CPPUNIT_TEST(envelope_can_take_the_text_of_another_code);
    CPPUNIT_TEST(validation_error_keeps_its_fields_object);
    CPPUNIT_TEST(fall_back_used_when_table_lacks_the_code);
    CPPUNIT_TEST(fall_back_unused_when_table_has_the_code);
    CPPUNIT_TEST(make_envelope_has_exactly_code_message_request);
    CPPUNIT_TEST(shipped_message_file_parses_with_the_expected_texts);
    CPPUNIT_TEST_SUITE_END();

  public:
    void parse_reads_code_and_utf8_text() {
        Messages m = parsed("code-message[10022]=未找到相关书籍\n");
        CPPUNIT_ASSERT_EQUAL(std::string("未找到相关书籍"), m.text(Code::book_not_found));
    }

    void parse_decodes_u_escapes() {
        Messages m = parsed("code-message[10022]=\\u672a\\u627E到 x\n");
        CPPUNIT_ASSERT_EQUAL(std::string("未找到 x"), m.text(Code::book_not_found));
    }

    void parse_decodes_surrogate_pair_escape_to_one_character() {
        Messages m = parsed("code-message[1]=\\ud83d\\ude00\n");
        CPPUNIT_ASSERT_EQUAL(std::string("\xf0\x9f\x98\x80"), m.text(Code::book_created));
    }

    void parse_skips_comments_and_blank_lines() {
        Messages m = parsed("# a comment\n"
                            "! another comment\n"
                            "\n"
                            "   \t\n"
                            "  # indented comment\n"
                            "code-message[1]=新建图书成功\n");
        CPPUNIT_ASSERT_EQUAL(std::string("新建图书成功"), m.text(Code::book_created));
    }

    void parse_strips_carriage_returns() {
        Messages m = parsed("# comment\r\ncode-message[1]=a\r\ncode-message[4]=b\r\n");
        CPPUNIT_ASSERT_EQUAL(std::string("a"), m.text(Code::book_created));
        CPPUNIT_ASSERT_EQUAL(std::string("b"), m.text(Code::password_changed));
    }

    void parse_allows_spaces_around_equals_sign() {
        Messages m = parsed("code-message[1] =  新建\n");
        CPPUNIT_ASSERT_EQUAL(std::string("新建"), m.text(Code::book_created));
    }

    void malformed_line_names_origin_and_line_number() {
        for (const char *bad : {"hello", "code-message[1]", "code-message[1] x=y", "code-message=1",
                                "message[1]=x"}) {
            std::string what = parse_error("# header\ncode-message[0]=成功\n" + std::string(bad));
            CPPUNIT_ASSERT_MESSAGE(bad + (": " + what), contains(what, "'test.properties'"));
            CPPUNIT_ASSERT_MESSAGE(bad + (": " + what), contains(what, "line 3"));
        }
    }

    void non_numeric_code_is_malformed() {
        for (const char *bad : {"code-message[]=x", "code-message[abc]=x", "code-message[-1]=x",
                                "code-message[1234567]=x"}) {
            std::string what = parse_error(std::string(bad) + "\n");
            CPPUNIT_ASSERT_MESSAGE(bad + (": " + what), contains(what, "line 1"));
        }
    }

    void bad_or_unpaired_escape_is_malformed() {
        for (const char *bad :
             {"code-message[1]=\\x41", "code-message[1]=\\u12", "code-message[1]=\\",
              "code-message[1]=\\ud83d", "code-message[1]=\\ude00", "code-message[1]=\\ud83dx"}) {
            std::string what = parse_error(std::string("\n") + bad);
            CPPUNIT_ASSERT_MESSAGE(bad + (": " + what), contains(what, "line 2"));
        }
    }

    void invalid_utf8_text_is_malformed() {
        std::string what = parse_error("code-message[1]=\xe6\xb1\n");
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "line 1"));
    }

    void has_is_true_only_for_configured_codes() {
        Messages m = parsed("code-message[10022]=未找到相关书籍\n");
        CPPUNIT_ASSERT(m.has(Code::book_not_found));
        CPPUNIT_ASSERT(!m.has(Code::not_found));
    }

    void missing_code_falls_back_to_builtin_text() {
        Messages empty = parsed("");
        for (Code code : {Code::ok, Code::book_not_found, Code::parameter, Code::internal,
                          Code::json_not_object, Code::body_too_large}) {
            CPPUNIT_ASSERT_MESSAGE(std::to_string(num(code)), !empty.has(code));
            CPPUNIT_ASSERT_MESSAGE(std::to_string(num(code)), !empty.text(code).empty());
        }
    }

    void envelope_takes_code_and_text_from_table() {
        Messages m = parsed("code-message[10022]=未找到相关书籍\n");
        Json::Value e = error_envelope(ApiError(404, Code::book_not_found), m, "GET /v1/book/7");
        CPPUNIT_ASSERT_EQUAL(10022, e["code"].asInt());
        CPPUNIT_ASSERT_EQUAL(std::string("未找到相关书籍"), e["message"].asString());
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book/7"), e["request"].asString());
    }

    void envelope_can_take_the_text_of_another_code() {
        Messages m = table_without_book_not_found();
        ApiError error(400, Code::parameter, Code::json_malformed);
        Json::Value e = error_envelope(error, m, "POST /v1/book");
        CPPUNIT_ASSERT_EQUAL(10030, e["code"].asInt());
        CPPUNIT_ASSERT_EQUAL(std::string("请求体不是合法的JSON"), e["message"].asString());
    }

    void validation_error_keeps_its_fields_object() {
        Json::Value fields(Json::objectValue);
        fields["title"] = "图书名不可为空";
        fields["author"] = "图书作者不可为空";
        Json::Value e = error_envelope(ApiError(400, Code::parameter, fields),
                                       table_without_book_not_found(), "POST /v1/book");
        CPPUNIT_ASSERT_EQUAL(10030, e["code"].asInt());
        CPPUNIT_ASSERT_EQUAL(fields, e["message"]);
    }

    void fall_back_used_when_table_lacks_the_code() {
        ApiError error(404, Code::book_not_found);
        error.fall_back_to(Code::not_found);
        Json::Value e = error_envelope(error, table_without_book_not_found(), "GET /v1/book/7");
        CPPUNIT_ASSERT_EQUAL(10020, e["code"].asInt());
        CPPUNIT_ASSERT_EQUAL(std::string("资源不存在"), e["message"].asString());
    }

    void fall_back_unused_when_table_has_the_code() {
        Messages m = parsed("code-message[10020]=资源不存在\ncode-message[10022]=未找到相关书籍\n");
        ApiError error(404, Code::book_not_found);
        error.fall_back_to(Code::not_found);
        Json::Value e = error_envelope(error, m, "GET /v1/book/7");
        CPPUNIT_ASSERT_EQUAL(10022, e["code"].asInt());
        CPPUNIT_ASSERT_EQUAL(std::string("未找到相关书籍"), e["message"].asString());
    }

    void make_envelope_has_exactly_code_message_request() {
        Json::Value e = make_envelope(Code::book_created, "新建图书成功", "POST /v1/book");
        std::string keys;
        for (const std::string &key : e.getMemberNames())
            keys += key + " ";
        CPPUNIT_ASSERT_EQUAL(std::string("code message request "), keys);
        CPPUNIT_ASSERT_EQUAL(1, e["code"].asInt());
        CPPUNIT_ASSERT(e["code"].isInt());
        CPPUNIT_ASSERT_EQUAL(std::string("新建图书成功"), e["message"].asString());
        CPPUNIT_ASSERT_EQUAL(std::string("POST /v1/book"), e["request"].asString());
    }

    void shipped_message_file_parses_with_the_expected_texts() {
        // The one file read of the unit tests; the binary runs from the top of the repository.
        Messages m = Messages::load("conf/code-message.properties");
        for (Code code : {Code::book_created, Code::permissions_granted, Code::not_found,
                          Code::book_not_found, Code::parameter, Code::access_token_expired})
            CPPUNIT_ASSERT_MESSAGE(std::to_string(num(code)), m.has(code));
        CPPUNIT_ASSERT_EQUAL(std::string("未找到相关书籍"), m.text(Code::book_not_found));
        CPPUNIT_ASSERT_EQUAL(std::string("access token 过期"), m.text(Code::access_token_expired));
        CPPUNIT_ASSERT(!m.text(Code::book_created).empty());
        CPPUNIT_ASSERT(!m.text(Code::permissions_granted).empty());
        CPPUNIT_ASSERT(!m.text(Code::not_found).empty());
        CPPUNIT_ASSERT(!m.text(Code::parameter).empty());
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ErrorsTest);
