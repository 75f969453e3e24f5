// Validation rules of user fields that user and admin handlers share (doc/lin-cms.md §2.4 texts).
#pragma once

#include <optional>
#include <string>

#include <json/json.h>

#include "http/validate.h"

namespace cms {

// What password_allowed checks, in words, for messages that are not a client's.
extern const char *const k_password_rule;

// Whether password may be set through the client (change_password, register, reset).
bool password_allowed(const std::string &password);

// field (new password) and confirm_password: required, password_allowed, equal.
std::string new_password(const Json::Value &body, const char *field, validate::Problems &problems);

// An optional e-mail member: absent or "" → nullopt; a malformed one is a problem.
std::optional<std::string> email_member(const Json::Value &body, validate::Problems &problems);

// An optional name member (username, nickname) of 2..10 characters.
std::optional<std::string> name_member(const Json::Value &body, const char *field,
                                       FieldText length_text, validate::Problems &problems);

} // namespace cms
