// Unit tests for src/http/nginx_texts.cpp: a text as the value of an nginx `set` inside a JSON body
// (quotes, backslashes, $, control characters), and the include of the codes nginx answers.
#include "http/nginx_texts.h"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <string>

#include <json/json.h>

using cms::Messages;
using cms::nginx_set_value;
using cms::nginx_texts;

namespace {

// What nginx makes of a double-quoted string: \\ → \ and \" → " (and \t \r \n, which the values
// never hold: every backslash of theirs is doubled).
std::string nginx_unquote(const std::string &value) {
    std::string out;
    for (size_t i = 0; i < value.size(); ++i) {
        if (value[i] == '\\' && i + 1 < value.size() &&
            (value[i + 1] == '\\' || value[i + 1] == '"'))
            ++i;
        out += value[i];
    }
    return out;
}

// The text a JSON client reads from `"message":"<value as nginx sends it>"`.
std::string json_read(const std::string &inside_quotes) {
    Json::Value root;
    Json::CharReaderBuilder builder;
    std::string errors;
    std::string doc = "\"" + inside_quotes + "\"";
    std::unique_ptr<Json::CharReader> reader(builder.newCharReader());
    CPPUNIT_ASSERT_MESSAGE(doc + ": " + errors,
                           reader->parse(doc.data(), doc.data() + doc.size(), &root, &errors));
    return root.asString();
}

bool contains(const std::string &haystack, const std::string &needle) {
    return haystack.find(needle) != std::string::npos;
}

} // namespace

class NginxTextsTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(NginxTextsTest);
    CPPUNIT_TEST(plain_and_chinese_text_is_unchanged);
    CPPUNIT_TEST(quotes_and_backslashes_are_escaped_for_json_then_nginx);
    CPPUNIT_TEST(dollar_becomes_a_json_escape_nginx_leaves_alone);
    CPPUNIT_TEST(control_characters_become_json_escapes);
    CPPUNIT_TEST(every_value_reads_back_as_the_text);
    CPPUNIT_TEST(include_sets_each_code_nginx_answers_from_the_table);
    CPPUNIT_TEST(include_names_its_origin_on_one_comment_line);
    CPPUNIT_TEST_SUITE_END();

  public:
    void plain_and_chinese_text_is_unchanged() {
        CPPUNIT_ASSERT_EQUAL(std::string("Malformed request"),
                             nginx_set_value("Malformed request"));
        CPPUNIT_ASSERT_EQUAL(std::string("请求格式错误"), nginx_set_value("请求格式错误"));
        CPPUNIT_ASSERT_EQUAL(std::string("a {b}; #c 'd'"), nginx_set_value("a {b}; #c 'd'"));
        CPPUNIT_ASSERT_EQUAL(std::string(""), nginx_set_value(""));
    }

    void quotes_and_backslashes_are_escaped_for_json_then_nginx() {
        // JSON: \" and \\; nginx's double-quoted string doubles each backslash and escapes ".
        CPPUNIT_ASSERT_EQUAL(std::string("say \\\\\\\"hi\\\\\\\""), nginx_set_value("say \"hi\""));
        CPPUNIT_ASSERT_EQUAL(std::string("a\\\\\\\\b"), nginx_set_value("a\\b"));
    }

    void dollar_becomes_a_json_escape_nginx_leaves_alone() {
        // nginx reads $name in a value as a variable and has no escape for $.
        std::string value = nginx_set_value("costs $5 or ${x}");
        CPPUNIT_ASSERT(!contains(value, "$"));
        CPPUNIT_ASSERT_EQUAL(std::string("costs \\\\u00245 or \\\\u0024{x}"), value);
    }

    void control_characters_become_json_escapes() {
        std::string value = nginx_set_value("a\nb\tc\x01");
        CPPUNIT_ASSERT_EQUAL(std::string("a\\\\nb\\\\tc\\\\u0001"), value);
        for (char c : value)
            CPPUNIT_ASSERT(static_cast<unsigned char>(c) >= 0x20);
    }

    void every_value_reads_back_as_the_text() {
        for (const char *text : {"plain", "请求体过大", "\"quoted\" \\ $var ${v} $",
                                 "\x1f\n\r\t\x7f", "ends in a backslash \\", "\\\"", "emoji 😀"}) {
            std::string value = nginx_set_value(text);
            CPPUNIT_ASSERT_EQUAL_MESSAGE(value, std::string(text), json_read(nginx_unquote(value)));
        }
    }

    void include_sets_each_code_nginx_answers_from_the_table() {
        Messages m = Messages::parse("code-message[10320]=Bad \"request\" $1\n"
                                     "code-message[10302]=数据库暂时不可用\n",
                                     "test.properties");
        std::string include = nginx_texts(m, "test.properties");
        CPPUNIT_ASSERT(contains(include, "\nset $cms_text_10320 \"Bad \\\\\\\"request\\\\\\\" "
                                         "\\\\u00241\";\n"));
        CPPUNIT_ASSERT(contains(include, "\nset $cms_text_10302 \"数据库暂时不可用\";\n"));
        // A code the table lacks gets the built-in text, code-message.en.properties's: nginx never
        // sends an empty message.
        CPPUNIT_ASSERT(contains(include, "\nset $cms_text_10324 \"The service timed out, try "
                                         "again later\";\n"));
        for (const char *code : {"9999", "10140", "10300", "10321", "10322", "10323"})
            CPPUNIT_ASSERT_MESSAGE(
                code, contains(include, std::string("\nset $cms_text_") + code + " \""));
    }

    void include_names_its_origin_on_one_comment_line() {
        std::string include = nginx_texts(Messages::parse("", "x"), "/etc/a\nset $x 1;");
        CPPUNIT_ASSERT(contains(include, "'/etc/a%0Aset $x 1;'"));
        CPPUNIT_ASSERT(!contains(include, "\nset $x"));
        for (size_t at = 0, next; at < include.size(); at = next + 1) {
            next = include.find('\n', at);
            std::string line = include.substr(at, next - at);
            CPPUNIT_ASSERT_MESSAGE(line, line[0] == '#' || line.rfind("set $cms_text_", 0) == 0);
        }
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(NginxTextsTest);
