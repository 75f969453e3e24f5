// Message codes, the ApiError exception, the message table read from code-message.properties,
// and the one envelope builder used by successes and failures alike.
#pragma once

#include <exception>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <json/json.h>

namespace cms {

// Every code the service sends. Values are the wire contract (api.md §2, survey §2.2);
// codes of this project start at 10300. Never reuse or renumber one.
enum class Code : int {
    ok = 0,
    book_created = 1,
    password_changed = 4,
    user_deleted = 5,
    user_updated = 6,
    group_updated = 7,
    group_deleted = 8,
    permissions_granted = 9,
    permissions_removed = 10,
    user_registered = 11,
    book_updated = 13,
    book_deleted = 14,
    group_created = 15,
    internal = 9999,
    permission_denied = 10001,
    auth_header_missing = 10012,
    auth_header_malformed = 10013,
    not_found = 10020,
    user_not_found = 10021,
    book_not_found = 10022,
    register_group_missing = 10023,
    group_not_found = 10024,
    no_file = 10026,
    group_has_users = 10027,
    parameter = 10030,
    login_failed = 10031,
    old_password_wrong = 10032,
    access_token_bad = 10041,
    refresh_token_bad = 10042,
    access_token_expired = 10051,
    refresh_token_expired = 10052,
    forbidden = 10070,
    username_taken = 10071,
    group_name_taken = 10072,
    root_group_no_users = 10073,
    root_group_undeletable = 10074,
    guest_group_undeletable = 10075,
    email_taken = 10076,
    group_assign_missing = 10077,
    root_user_regroup = 10078,
    root_user_undeletable = 10079,
    method_not_allowed = 10080,
    file_too_large = 10110,
    too_many_files = 10121,
    file_extension = 10130,
    too_many_requests = 10140,
    type_error = 10160,
    body_empty = 10170,
    body_too_large = 10300,
    unsupported_media_type = 10301,
    db_unavailable = 10302,
    permission_not_found = 10303,
    multipart_required = 10304,
    multipart_malformed = 10305,
    json_malformed = 10310,
    json_too_deep = 10311,
    json_duplicate_key = 10312,
    body_not_utf8 = 10313,
    json_not_object = 10314,
    idempotency_key_invalid = 10390,
    idempotency_key_reused = 10391,
    idempotency_key_busy = 10392,
};

// A request that cannot be served as asked: rendered by the loop as the envelope with status.
class ApiError : public std::exception {
  public:
    // The text is the message table's text of code.
    ApiError(int http_status, Code error_code)
        : status(http_status), code(error_code), text_code(error_code) {}
    // code with the text of another code, e.g. 10030 with the text of 10310 (malformed JSON).
    ApiError(int http_status, Code error_code, Code text_of)
        : status(http_status), code(error_code), text_code(text_of) {}
    // Validation failure: message is an object mapping each failing field to its text.
    ApiError(int http_status, Code error_code, Json::Value field_texts)
        : status(http_status), code(error_code), text_code(error_code),
          fields(std::move(field_texts)) {}

    const char *what() const noexcept override { return "api error"; }

    // When the message table has no text for code, send this code (and its text) instead.
    ApiError &fall_back_to(Code other) {
        fallback = other;
        return *this;
    }
    ApiError &header(std::string name, std::string value) {
        headers.emplace_back(std::move(name), std::move(value));
        return *this;
    }

    int status;
    Code code;
    Code text_code;
    Json::Value fields; // null unless a validation failure
    Code fallback = Code::ok;
    std::vector<std::pair<std::string, std::string>> headers;
};

// Code → text, from conf/code-message.properties; a configured text always wins.
class Messages {
  public:
    // Reads `code-message[<code>]=<text>` lines (UTF-8, \uXXXX escapes); throws std::runtime_error
    // naming file and line on a malformed line.
    static Messages load(const std::string &path);
    // Same, from text already read (origin names it in errors).
    static Messages parse(const std::string &text, const std::string &origin);

    bool has(Code code) const { return texts_.count(static_cast<int>(code)) != 0; }
    // The configured text of code, else a built-in English text.
    std::string text(Code code) const;

  private:
    std::unordered_map<int, std::string> texts_;
};

// {"code", "message", "request"}: the body of every write success and every failure.
Json::Value make_envelope(Code code, Json::Value message, const std::string &request_line);

// The envelope of error for the request line, with the code and text the table decides.
Json::Value error_envelope(const ApiError &error, const Messages &messages,
                           const std::string &request_line);

} // namespace cms
