// Unit tests for src/api/user_rules.cpp: the new-password pattern at its length boundaries and symbols,
// the confirmation, the e-mail shape, name lengths in characters (doc/lin-cms.md §2.4 texts).
#include "api/user_rules.h"
#include "base/errors.h"
#include "field_texts.h"

#include <cppunit/extensions/HelperMacros.h>

#include <optional>
#include <string>

using cms::ApiError;
using cms::Code;
using cms::FieldText;
using cms::email_member;
using cms::name_member;
using cms::new_password;
using cms::validate::Problems;

namespace {

const char *const k_pattern = "密码长度必须在6~22位之间，包含字符、数字和 _";
const char *const k_mismatch = "两次输入密码不一致";
const char *const k_bad_email = "电子邮箱不符合规范，请输入正确的邮箱";
const char *const k_name_length = "用户名长度必须在2~10之间";
constexpr FieldText k_name_rule = FieldText::username_length;

int num(Code code) {
    return static_cast<int>(code);
}

std::string repeated(const std::string &text, int times) {
    std::string out;
    for (int i = 0; i < times; ++i)
        out += text;
    return out;
}

Json::Value body_with(const char *name, const Json::Value &value) {
    Json::Value body(Json::objectValue);
    body[name] = value;
    return body;
}

Json::Value passwords(const std::string &password, const std::string &confirm) {
    Json::Value body(Json::objectValue);
    body["new_password"] = password;
    body["confirm_password"] = confirm;
    return body;
}

// The fields of the ApiError that problems.check() throws; an empty object when it does not throw.
Json::Value fields_of(const Problems &problems) {
    try {
        problems.check();
    } catch (const ApiError &e) {
        CPPUNIT_ASSERT_EQUAL(400, e.status);
        CPPUNIT_ASSERT_EQUAL(num(Code::parameter), num(e.code));
        return shipped_field_texts(e);
    }
    return Json::Value(Json::objectValue);
}

Json::Value one_field(const char *name, const char *text) {
    Json::Value fields(Json::objectValue);
    fields[name] = text;
    return fields;
}

// The problems new_password records for body.
Json::Value password_problems(const Json::Value &body) {
    Problems problems;
    new_password(body, "new_password", problems);
    return fields_of(problems);
}

// The problems new_password records when both members are password.
Json::Value matching_password_problems(const std::string &password) {
    return password_problems(passwords(password, password));
}

// What email_member returns for value, "rejected: <text>" when it records a problem.
std::string email_of(const Json::Value &value) {
    Problems problems;
    std::optional<std::string> email = email_member(body_with("email", value), problems);
    if (!problems.empty())
        return "rejected: " + fields_of(problems)["email"].asString();
    return email.value_or("(nullopt)");
}

// What name_member returns for value, "rejected: <text>" when it records a problem.
std::string name_of(const Json::Value &value) {
    Problems problems;
    std::optional<std::string> name =
        name_member(body_with("nickname", value), "nickname", k_name_rule, problems);
    if (!problems.empty())
        return "rejected: " + fields_of(problems)["nickname"].asString();
    return name.value_or("(nullopt)");
}

} // namespace

class UserRulesTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(UserRulesTest);
    CPPUNIT_TEST(password_of_6_and_22_characters_is_accepted_and_returned);
    CPPUNIT_TEST(password_of_5_characters_gives_the_pattern_text);
    CPPUNIT_TEST(password_of_23_characters_gives_only_the_pattern_text);
    CPPUNIT_TEST(password_accepts_every_allowed_symbol);
    CPPUNIT_TEST(password_refuses_other_ascii_symbols);
    CPPUNIT_TEST(password_refuses_cjk_and_space);
    CPPUNIT_TEST(password_confirm_mismatch_is_a_problem_of_confirm_password);
    CPPUNIT_TEST(password_missing_or_empty_gives_the_missing_text);
    CPPUNIT_TEST(password_confirm_missing_or_empty_gives_its_missing_text);
    CPPUNIT_TEST(password_problems_use_the_given_field_name);
    CPPUNIT_TEST(email_absent_null_or_empty_is_nullopt_without_problem);
    CPPUNIT_TEST(email_of_the_usual_shape_is_accepted);
    CPPUNIT_TEST(email_without_at_or_with_two_is_refused);
    CPPUNIT_TEST(email_without_dot_in_the_domain_is_refused);
    CPPUNIT_TEST(email_with_a_space_is_refused);
    CPPUNIT_TEST(email_of_100_characters_is_accepted_and_101_refused);
    CPPUNIT_TEST(email_of_wrong_type_gives_the_type_text);
    CPPUNIT_TEST(name_absent_is_nullopt_without_problem);
    CPPUNIT_TEST(name_of_2_and_10_cjk_characters_is_accepted);
    CPPUNIT_TEST(name_of_1_and_11_cjk_characters_is_refused);
    CPPUNIT_TEST(name_of_2_and_10_emoji_is_accepted);
    CPPUNIT_TEST(name_of_1_and_11_emoji_is_refused);
    CPPUNIT_TEST(name_empty_is_refused);
    CPPUNIT_TEST_SUITE_END();

  public:
    void password_of_6_and_22_characters_is_accepted_and_returned() {
        for (const std::string &password : {std::string("abc123"), repeated("aB3", 7) + "x"}) {
            Problems problems;
            CPPUNIT_ASSERT_EQUAL(
                password, new_password(passwords(password, password), "new_password", problems));
            CPPUNIT_ASSERT_EQUAL_MESSAGE(password, Json::Value(Json::objectValue),
                                         fields_of(problems));
        }
    }

    void password_of_5_characters_gives_the_pattern_text() {
        CPPUNIT_ASSERT_EQUAL(one_field("new_password", k_pattern),
                             matching_password_problems("abc12"));
    }

    // The confirmation matches; only the password breaks a rule: Lin CMS reports the pattern alone.
    void password_of_23_characters_gives_only_the_pattern_text() {
        CPPUNIT_ASSERT_EQUAL(one_field("new_password", k_pattern),
                             matching_password_problems(repeated("aB3", 7) + "xy"));
    }

    void password_accepts_every_allowed_symbol() {
        for (const char *password : {"abcde_", "abcde*", "abcde&", "abcde$", "abcde#", "abcde@",
                                     "_*&$#@", "ABCXYZabcxyz0189_*&$#@"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(password, Json::Value(Json::objectValue),
                                         matching_password_problems(password));
    }

    void password_refuses_other_ascii_symbols() {
        for (const char *password : {"abcde!", "abcde-", "abcde.", "abcde%", "abcde^", "abcde~"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(password, one_field("new_password", k_pattern),
                                         matching_password_problems(password));
    }

    void password_refuses_cjk_and_space() {
        for (const char *password : {"密码abcd12", "abc 123", " abc123", "abc123 ", "abc\t123"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(password, one_field("new_password", k_pattern),
                                         matching_password_problems(password));
    }

    void password_confirm_mismatch_is_a_problem_of_confirm_password() {
        CPPUNIT_ASSERT_EQUAL(one_field("confirm_password", k_mismatch),
                             password_problems(passwords("abc123", "abc124")));
        CPPUNIT_ASSERT_EQUAL(one_field("confirm_password", k_mismatch),
                             password_problems(passwords("abc123", "ABC123")));
    }

    void password_missing_or_empty_gives_the_missing_text() {
        Json::Value missing(Json::objectValue);
        missing["confirm_password"] = "abc123";
        CPPUNIT_ASSERT_EQUAL(one_field("new_password", "密码不可为空"), password_problems(missing));
        CPPUNIT_ASSERT_EQUAL(one_field("new_password", "密码不可为空"),
                             password_problems(passwords("", "abc123")));
    }

    void password_confirm_missing_or_empty_gives_its_missing_text() {
        CPPUNIT_ASSERT_EQUAL(one_field("confirm_password", "确认密码不可为空"),
                             password_problems(body_with("new_password", "abc123")));
        CPPUNIT_ASSERT_EQUAL(one_field("confirm_password", "确认密码不可为空"),
                             password_problems(passwords("abc123", "")));
        Json::Value both(Json::objectValue);
        both["new_password"] = "密码不可为空";
        both["confirm_password"] = "确认密码不可为空";
        CPPUNIT_ASSERT_EQUAL(both, password_problems(Json::Value(Json::objectValue)));
    }

    void password_problems_use_the_given_field_name() {
        Json::Value body(Json::objectValue);
        body["password"] = "abc";
        body["confirm_password"] = "abc";
        Problems problems;
        new_password(body, "password", problems);
        CPPUNIT_ASSERT_EQUAL(one_field("password", k_pattern), fields_of(problems));
    }

    void email_absent_null_or_empty_is_nullopt_without_problem() {
        Problems problems;
        CPPUNIT_ASSERT(!email_member(Json::Value(Json::objectValue), problems));
        CPPUNIT_ASSERT(!email_member(body_with("email", Json::Value()), problems));
        CPPUNIT_ASSERT(!email_member(body_with("email", ""), problems));
        CPPUNIT_ASSERT(problems.empty());
    }

    void email_of_the_usual_shape_is_accepted() {
        for (const char *email : {"a@b.cn", "first.last+tag@mail.example.com"})
            CPPUNIT_ASSERT_EQUAL(std::string(email), email_of(email));
    }

    void email_without_at_or_with_two_is_refused() {
        const std::string rejected = std::string("rejected: ") + k_bad_email;
        for (const char *email : {"ab.cn", "a@@b.cn", "a@b@c.cn", "@b.cn"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(email, rejected, email_of(email));
    }

    void email_without_dot_in_the_domain_is_refused() {
        const std::string rejected = std::string("rejected: ") + k_bad_email;
        for (const char *email : {"a@bcn", "a.b@cn", "a@b.", "a@.cn", "a@b..cn"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(email, rejected, email_of(email));
    }

    void email_with_a_space_is_refused() {
        const std::string rejected = std::string("rejected: ") + k_bad_email;
        for (const char *email : {"a b@c.cn", "a@b c.cn", " a@b.cn", "a@b.cn "})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(email, rejected, email_of(email));
    }

    void email_of_100_characters_is_accepted_and_101_refused() {
        const std::string at_limit = repeated("a", 95) + "@b.cn";
        CPPUNIT_ASSERT_EQUAL(size_t(100), at_limit.size());
        CPPUNIT_ASSERT_EQUAL(at_limit, email_of(at_limit));
        CPPUNIT_ASSERT_EQUAL(std::string("rejected: ") + k_bad_email, email_of("a" + at_limit));
    }

    void email_of_wrong_type_gives_the_type_text() {
        CPPUNIT_ASSERT_EQUAL(std::string("rejected: email字段类型错误"), email_of(5));
    }

    void name_absent_is_nullopt_without_problem() {
        Problems problems;
        CPPUNIT_ASSERT(
            !name_member(Json::Value(Json::objectValue), "nickname", k_name_rule, problems));
        CPPUNIT_ASSERT_EQUAL(std::string("(nullopt)"), name_of(Json::Value()));
        CPPUNIT_ASSERT(problems.empty());
    }

    void name_of_2_and_10_cjk_characters_is_accepted() {
        CPPUNIT_ASSERT_EQUAL(repeated("汉", 2), name_of(repeated("汉", 2)));
        CPPUNIT_ASSERT_EQUAL(repeated("汉", 10), name_of(repeated("汉", 10)));
    }

    void name_of_1_and_11_cjk_characters_is_refused() {
        const std::string rejected = std::string("rejected: ") + k_name_length;
        CPPUNIT_ASSERT_EQUAL(rejected, name_of("汉"));
        CPPUNIT_ASSERT_EQUAL(rejected, name_of(repeated("汉", 11)));
    }

    void name_of_2_and_10_emoji_is_accepted() {
        CPPUNIT_ASSERT_EQUAL(repeated("😀", 2), name_of(repeated("😀", 2)));
        CPPUNIT_ASSERT_EQUAL(repeated("😀", 10), name_of(repeated("😀", 10)));
    }

    void name_of_1_and_11_emoji_is_refused() {
        const std::string rejected = std::string("rejected: ") + k_name_length;
        CPPUNIT_ASSERT_EQUAL(rejected, name_of("😀"));
        CPPUNIT_ASSERT_EQUAL(rejected, name_of(repeated("😀", 11)));
    }

    void name_empty_is_refused() {
        CPPUNIT_ASSERT_EQUAL(std::string("rejected: ") + k_name_length, name_of(""));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(UserRulesTest);
