// Unit tests for src/http/behaviour_log.cpp's render_log_template: each {user.*} placeholder, HTML
// escaping of the values, unknown and absent values, and text that is not a placeholder.
#include "http/behaviour_log.h"
#include "http/context.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::Principal;
using cms::render_log_template;

namespace {

Principal user() {
    Principal u;
    u.id = 42;
    u.username = "root";
    u.nickname = "超级管理员";
    u.email = "root@example.cn";
    return u;
}

Principal named(const std::string &username) {
    Principal u = user();
    u.username = username;
    return u;
}

std::string rendered(const std::string &tmpl, const Principal &u = user()) {
    return render_log_template(tmpl, u);
}

} // namespace

class BehaviourLogTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(BehaviourLogTest);
    CPPUNIT_TEST(each_user_placeholder_is_replaced);
    CPPUNIT_TEST(a_placeholder_used_twice_is_replaced_twice);
    CPPUNIT_TEST(each_html_special_character_of_a_value_is_escaped);
    CPPUNIT_TEST(a_value_with_every_special_character_is_escaped_in_place);
    CPPUNIT_TEST(an_unknown_placeholder_becomes_empty);
    CPPUNIT_TEST(text_without_braces_is_unchanged);
    CPPUNIT_TEST(an_unclosed_brace_is_kept_as_text);
    CPPUNIT_TEST(a_lone_closing_brace_is_kept_as_text);
    CPPUNIT_TEST(an_absent_nickname_or_email_becomes_empty);
    CPPUNIT_TEST(cjk_text_around_placeholders_is_kept);
    CPPUNIT_TEST_SUITE_END();

  public:
    void each_user_placeholder_is_replaced() {
        CPPUNIT_ASSERT_EQUAL(std::string("root"), rendered("{user.username}"));
        CPPUNIT_ASSERT_EQUAL(std::string("超级管理员"), rendered("{user.nickname}"));
        CPPUNIT_ASSERT_EQUAL(std::string("root@example.cn"), rendered("{user.email}"));
        CPPUNIT_ASSERT_EQUAL(std::string("42"), rendered("{user.id}"));
        CPPUNIT_ASSERT_EQUAL(std::string("root|超级管理员|root@example.cn|42"),
                             rendered("{user.username}|{user.nickname}|{user.email}|{user.id}"));
    }

    void a_placeholder_used_twice_is_replaced_twice() {
        CPPUNIT_ASSERT_EQUAL(std::string("42-42"), rendered("{user.id}-{user.id}"));
    }

    void each_html_special_character_of_a_value_is_escaped() {
        const struct {
            const char *raw;
            const char *escaped;
        } cases[] = {
            {"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}, {"'", "&#39;"}};
        for (const auto &c : cases)
            CPPUNIT_ASSERT_EQUAL_MESSAGE(
                c.raw, "a" + std::string(c.escaped) + "b",
                rendered("{user.username}", named(std::string("a") + c.raw + "b")));
    }

    void a_value_with_every_special_character_is_escaped_in_place() {
        Principal u = user();
        u.nickname = "<script>alert('x&y')</script>";
        u.email = "\"q\"@b.cn";
        CPPUNIT_ASSERT_EQUAL(
            std::string("&lt;script&gt;alert(&#39;x&amp;y&#39;)&lt;/script&gt; &quot;q&quot;@b.cn"),
            rendered("{user.nickname} {user.email}", u));
    }

    void an_unknown_placeholder_becomes_empty() {
        CPPUNIT_ASSERT_EQUAL(std::string("[]"), rendered("[{user.password}]"));
        CPPUNIT_ASSERT_EQUAL(std::string("[]"), rendered("[{foo}]"));
        CPPUNIT_ASSERT_EQUAL(std::string("[]"), rendered("[{}]"));
        CPPUNIT_ASSERT_EQUAL(std::string("[]"), rendered("[{user.Username}]"));
    }

    void text_without_braces_is_unchanged() {
        CPPUNIT_ASSERT_EQUAL(std::string("管理员新建了一个用户"), rendered("管理员新建了一个用户"));
        CPPUNIT_ASSERT_EQUAL(std::string("user.username & <b>"), rendered("user.username & <b>"));
        CPPUNIT_ASSERT_EQUAL(std::string(""), rendered(""));
    }

    void an_unclosed_brace_is_kept_as_text() {
        CPPUNIT_ASSERT_EQUAL(std::string("root修改了{user.nickname"),
                             rendered("{user.username}修改了{user.nickname"));
        CPPUNIT_ASSERT_EQUAL(std::string("a { b"), rendered("a { b"));
        CPPUNIT_ASSERT_EQUAL(std::string("{"), rendered("{"));
    }

    void a_lone_closing_brace_is_kept_as_text() {
        CPPUNIT_ASSERT_EQUAL(std::string("a } root"), rendered("a } {user.username}"));
    }

    void an_absent_nickname_or_email_becomes_empty() {
        Principal u = user();
        u.nickname.reset();
        u.email.reset();
        CPPUNIT_ASSERT_EQUAL(std::string("[][]"), rendered("[{user.nickname}][{user.email}]", u));
    }

    void cjk_text_around_placeholders_is_kept() {
        CPPUNIT_ASSERT_EQUAL(std::string("张三修改了自己的密码"),
                             rendered("{user.username}修改了自己的密码", named("张三")));
        CPPUNIT_ASSERT_EQUAL(std::string("用户超级管理员（42）又皮了一波"),
                             rendered("用户{user.nickname}（{user.id}）又皮了一波"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BehaviourLogTest);
