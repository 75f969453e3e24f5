// Validation rules of user fields.
#include "user_rules.h"

#include <regex>

namespace cms {

namespace {

constexpr const char *k_password_text = "密码长度必须在6~22位之间，包含字符、数字和 _";

} // namespace

std::string new_password(const Json::Value &body, const char *field, validate::Problems &problems) {
    static const std::regex pattern("^[A-Za-z0-9_*&$#@]{6,22}$");
    std::optional<std::string> pw = validate::string_member(body, field, problems);
    if (!pw || pw->empty())
        problems.add(field, "密码不可为空");
    // The length first: no regex runs over a megabyte of input.
    else if (validate::length(*pw) > 22 || !std::regex_match(*pw, pattern))
        problems.add(field, k_password_text);
    // The confirmation is only required and equal (survey §2.4); its length is the password's.
    std::optional<std::string> confirm = validate::string_member(body, "confirm_password", problems);
    if (!confirm || confirm->empty())
        problems.add("confirm_password", "确认密码不可为空");
    else if (pw && !pw->empty() && *confirm != *pw)
        problems.add("confirm_password", "两次输入密码不一致");
    return pw.value_or("");
}

std::optional<std::string> email_member(const Json::Value &body, validate::Problems &problems) {
    static const std::regex pattern(R"(^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$)");
    std::optional<std::string> email = validate::string_member(body, "email", problems);
    if (!email || email->empty())
        return std::nullopt;
    if (validate::length(*email) > 100 || !std::regex_match(*email, pattern)) {
        problems.add("email", "电子邮箱不符合规范，请输入正确的邮箱");
        return std::nullopt;
    }
    return email;
}

std::optional<std::string> name_member(const Json::Value &body, const char *field,
                                       const char *length_text, validate::Problems &problems) {
    std::optional<std::string> name = validate::string_member(body, field, problems);
    if (name && (validate::length(*name) < 2 || validate::length(*name) > 10)) {
        problems.add(field, length_text);
        return std::nullopt;
    }
    return name;
}

} // namespace cms
