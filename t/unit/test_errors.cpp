// Unit tests for src/base/errors.cpp: the message table parser (escapes, comments, malformed lines),
// text fallbacks, and the envelope that error_envelope builds from an ApiError.
#include "base/errors.h"

#include <cppunit/extensions/HelperMacros.h>

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

using cms::ApiError;
using cms::Code;
using cms::error_envelope;
using cms::FieldProblem;
using cms::FieldText;
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

// The keys of a message file's lines, "<code>" or "<code>.<key>", in file order.
std::vector<std::string> keys_of_file(const std::string &path) {
    std::ifstream file(path);
    CPPUNIT_ASSERT_MESSAGE("cannot open " + path, file.good());
    std::vector<std::string> keys;
    std::string line;
    while (std::getline(file, line))
        if (line.rfind("code-message[", 0) == 0)
            keys.push_back(line.substr(13, line.find(']') - 13));
    return keys;
}

const char *const k_shipped_files[] = {"conf/code-message.properties",
                                       "conf/code-message.en.properties"};

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
    CPPUNIT_TEST(validation_error_maps_fields_to_their_texts);
    CPPUNIT_TEST(field_text_substitutes_the_field_name);
    CPPUNIT_TEST(field_text_missing_from_table_falls_back_to_english);
    CPPUNIT_TEST(built_in_texts_are_the_english_files);
    CPPUNIT_TEST(no_table_answers_the_english_files_texts);
    CPPUNIT_TEST(parse_reads_field_text_sub_keys);
    CPPUNIT_TEST(malformed_sub_key_is_malformed);
    CPPUNIT_TEST(every_known_key_has_a_text_in_both_shipped_files);
    CPPUNIT_TEST(both_shipped_files_have_the_same_keys_once_each);
    CPPUNIT_TEST(every_field_text_has_its_own_key);
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

    void validation_error_maps_fields_to_their_texts() {
        Messages m = parsed("code-message[10030.book.title.not-empty]=必须传入图书名\n"
                            "code-message[10030.book.author.not-empty]=必须传入图书作者\n");
        std::vector<FieldProblem> problems = {{"title", FieldText::book_title_not_empty},
                                              {"author", FieldText::book_author_not_empty}};
        Json::Value e = error_envelope(ApiError(400, Code::parameter, problems), m, "POST /v1/book");
        Json::Value fields(Json::objectValue);
        fields["title"] = "必须传入图书名";
        fields["author"] = "必须传入图书作者";
        CPPUNIT_ASSERT_EQUAL(10030, e["code"].asInt());
        CPPUNIT_ASSERT_EQUAL(fields, e["message"]);
    }

    void field_text_substitutes_the_field_name() {
        Messages m = parsed("code-message[10030.field.type]=字段{field}类型错误\n");
        std::vector<FieldProblem> problems = {{"title", FieldText::wrong_type}};
        Json::Value e = error_envelope(ApiError(400, Code::parameter, problems), m, "POST /v1/book");
        CPPUNIT_ASSERT_EQUAL(std::string("字段title类型错误"), e["message"]["title"].asString());
    }

    void field_text_missing_from_table_falls_back_to_english() {
        Messages empty = parsed("");
        CPPUNIT_ASSERT(!empty.has(FieldText::book_title_not_empty));
        CPPUNIT_ASSERT_EQUAL(std::string("The title is required"),
                             empty.text(FieldText::book_title_not_empty));
    }

    // The built-in texts are code-message.en.properties compiled in: for every key the service
    // can send, a table without it gives the English file's text, byte for byte.
    void built_in_texts_are_the_english_files() {
        Messages empty = parsed("");
        Messages english = Messages::load(k_shipped_files[1]);
        size_t compared = 0;
        for (const std::string &key : Messages::known_keys()) {
            if (key.find('.') == std::string::npos) {
                Code code = static_cast<Code>(std::stoi(key));
                CPPUNIT_ASSERT_MESSAGE(key, english.has(code) && !empty.has(code));
                CPPUNIT_ASSERT_EQUAL_MESSAGE(key, english.text(code), empty.text(code));
                ++compared;
                continue;
            }
            for (int i = 0; i < static_cast<int>(FieldText::count_); ++i) {
                FieldText text = static_cast<FieldText>(i);
                if (Messages::key(text) != key)
                    continue;
                CPPUNIT_ASSERT_MESSAGE(key, english.has(text) && !empty.has(text));
                CPPUNIT_ASSERT_EQUAL_MESSAGE(key, english.text(text), empty.text(text));
                ++compared;
            }
        }
        CPPUNIT_ASSERT_EQUAL(Messages::known_keys().size(), compared);
    }

    // With no table at all (the 500 of a CGI program whose start-up failed), 9999 has the English
    // file's "Unknown server error": until the table was generated it was "internal server error".
    void no_table_answers_the_english_files_texts() {
        Messages none;
        CPPUNIT_ASSERT_EQUAL(std::string("Unknown server error"), none.text(Code::internal));
        CPPUNIT_ASSERT_EQUAL(std::string("Book not found"), none.text(Code::book_not_found));
        CPPUNIT_ASSERT_EQUAL(std::string("{field} has the wrong type"),
                             none.text(FieldText::wrong_type));
    }

    void parse_reads_field_text_sub_keys() {
        Messages m = parsed("code-message[10030]=参数错误\n"
                            "code-message[10030.book.title.not-empty] = 书名呢\n");
        CPPUNIT_ASSERT(m.has(FieldText::book_title_not_empty));
        CPPUNIT_ASSERT(!m.has(FieldText::book_title_length));
        CPPUNIT_ASSERT_EQUAL(std::string("书名呢"), m.text(FieldText::book_title_not_empty));
        CPPUNIT_ASSERT_EQUAL(std::string("参数错误"), m.text(Code::parameter));
        CPPUNIT_ASSERT_EQUAL(std::string("10030.book.title.not-empty"),
                             Messages::key(FieldText::book_title_not_empty));
    }

    void malformed_sub_key_is_malformed() {
        for (const char *bad : {"code-message[10030.]=x", "code-message[10030.Book]=x",
                                "code-message[10030.a b]=x", "code-message[.title]=x",
                                "code-message[x.title]=x"}) {
            std::string what = parse_error(std::string(bad) + "\n");
            CPPUNIT_ASSERT_MESSAGE(bad + (": " + what), contains(what, "line 1"));
        }
    }

    // Every code the service can send and every field text, in Chinese and in English.
    void every_known_key_has_a_text_in_both_shipped_files() {
        for (const char *path : k_shipped_files) {
            std::vector<std::string> keys = keys_of_file(path);
            std::set<std::string> have(keys.begin(), keys.end());
            for (const std::string &key : Messages::known_keys())
                CPPUNIT_ASSERT_MESSAGE(std::string(path) + " lacks " + key, have.count(key) == 1);
            Messages m = Messages::load(path);
            for (int i = 0; i < static_cast<int>(FieldText::count_); ++i)
                CPPUNIT_ASSERT(!m.text(static_cast<FieldText>(i)).empty());
        }
    }

    void both_shipped_files_have_the_same_keys_once_each() {
        std::vector<std::string> chinese = keys_of_file(k_shipped_files[0]);
        std::vector<std::string> english = keys_of_file(k_shipped_files[1]);
        std::set<std::string> chinese_set(chinese.begin(), chinese.end());
        std::set<std::string> english_set(english.begin(), english.end());
        CPPUNIT_ASSERT_EQUAL(chinese.size(), chinese_set.size());
        CPPUNIT_ASSERT_EQUAL(english.size(), english_set.size());
        for (const std::string &key : chinese_set)
            CPPUNIT_ASSERT_MESSAGE("only in the Chinese table: " + key, english_set.count(key));
        for (const std::string &key : english_set)
            CPPUNIT_ASSERT_MESSAGE("only in the English table: " + key, chinese_set.count(key));
    }

    void every_field_text_has_its_own_key() {
        std::set<std::string> keys;
        for (int i = 0; i < static_cast<int>(FieldText::count_); ++i)
            keys.insert(Messages::key(static_cast<FieldText>(i)));
        CPPUNIT_ASSERT_EQUAL(static_cast<size_t>(FieldText::count_), keys.size());
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
