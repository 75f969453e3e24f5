// Validation rules of user fields.
#include "api/user_rules.h"

#include <regex>

namespace cms {

const char *const k_password_rule = "6 to 22 characters, each a letter, a digit or one of _*&$#@";

bool password_allowed(const std::string &password) {
    static const std::regex pattern("^[A-Za-z0-9_*&$#@]{6,22}$");
    // The length first: no regex runs over a megabyte of input.
    return password.size() <= 22 && std::regex_match(password, pattern);
}

std::string new_password(const Json::Value &body, const char *field, validate::Problems &problems) {
    std::optional<std::string> pw = validate::string_member(body, field, problems);
    if (!pw || pw->empty())
        problems.add(field, FieldText::password_new_not_blank);
    else if (!password_allowed(*pw))
        problems.add(field, FieldText::password_new_pattern);
    // Only required and equal to the password (doc/lin-cms.md §2.4); its length is the password's.
    std::optional<std::string> confirm = validate::string_member(body, "confirm_password", problems);
    if (!confirm || confirm->empty())
        problems.add("confirm_password", FieldText::password_confirm_not_blank);
    else if (pw && !pw->empty() && *confirm != *pw)
        problems.add("confirm_password", FieldText::password_equal_field);
    return pw.value_or("");
}

std::optional<std::string> email_member(const Json::Value &body, validate::Problems &problems) {
    static const std::regex pattern(R"(^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$)");
    std::optional<std::string> email = validate::string_member(body, "email", problems);
    if (!email || email->empty())
        return std::nullopt;
    if (validate::length(*email) > 100 || !std::regex_match(*email, pattern)) {
        problems.add("email", FieldText::email);
        return std::nullopt;
    }
    return email;
}

std::optional<std::string> name_member(const Json::Value &body, const char *field,
                                       FieldText length_text, validate::Problems &problems) {
    std::optional<std::string> name = validate::string_member(body, field, problems);
    if (name && (validate::length(*name) < 2 || validate::length(*name) > 10)) {
        problems.add(field, length_text);
        return std::nullopt;
    }
    return name;
}

} // namespace cms
