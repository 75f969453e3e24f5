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

// Every code the service sends. Values are the wire contract (doc/api.md §2, doc/lin-cms.md §2.2);
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
    captcha_wrong = 10260,
    type_error = 10160,
    body_empty = 10170,
    body_too_large = 10300,
    unsupported_media_type = 10301,
    db_unavailable = 10302,
    permission_not_found = 10303,
    multipart_required = 10304,
    multipart_malformed = 10305,
    file_store_full = 10306,
    json_malformed = 10310,
    json_too_deep = 10311,
    json_duplicate_key = 10312,
    body_not_utf8 = 10313,
    json_not_object = 10314,
    // Sent by nginx itself (nginx/cms-fcgi.conf), never by the app: see nginx_texts.h.
    http_malformed = 10320,
    http_timeout = 10321,
    uri_too_long = 10322,
    headers_too_large = 10323,
    upstream_timeout = 10324,
    idempotency_key_invalid = 10390,
    idempotency_key_reused = 10391,
    idempotency_key_busy = 10392,
    // GET /status of a CGI program or a single worker: there is no pool to show.
    status_no_pool = 10393,
    // A declared collection's (doc/content.md): {label} in the text is the collection's label.
    content_created = 10400,
    content_updated = 10401,
    content_deleted = 10402,
    content_restored = 10403,
    content_not_found = 10404,
    content_taken = 10405,
};

// The texts of validation failures, sent inside a 400/10030 whose message maps field → text.
// The message table holds each as code-message[10030.<key>] (the keys, in errors.cpp, are those
// of Lin CMS's ValidationMessages.properties where it has the text).
enum class FieldText : int {
    id_positive,
    page_count_min,
    page_count_max,
    page_number_min,
    group_id_positive,
    group_id_not_null,
    group_ids_positive,
    group_ids_not_empty,
    group_name_not_blank,
    group_name_length,
    group_info_length,
    permission_id_positive,
    permission_id_not_null,
    permission_ids_not_empty,
    email,
    username_not_blank,
    username_length,
    nickname_length,
    avatar_length,
    password_new_not_blank,
    password_new_pattern,
    password_confirm_not_blank,
    password_old_not_blank,
    password_old_length,
    password_equal_field,
    login_password_length,
    book_title_not_empty,
    book_title_length,
    book_author_not_empty,
    book_author_length,
    book_summary_not_empty,
    book_summary_length,
    book_image_length,
    book_query_utf8,
    log_time_format,
    log_filter_format,
    wrong_type,
    ids_too_many,
    // A declared field's ({label}, {min}, {max}, {values}, {target} in the texts).
    content_required,
    content_text,
    content_integer,
    content_decimal,
    content_decimal_digits,
    content_boolean,
    content_date,
    content_datetime,
    content_enum,
    content_email,
    content_url,
    content_relation,
    content_file,
    content_length,
    content_min_length,
    content_max_length,
    content_range,
    content_min,
    content_max,
    content_taken,
    // A list query's parameter ({field} is the parameter).
    query_unknown,
    query_value,
    query_not_allowed,
    query_too_many,
    count_ // not a text: the number of them
};

// One failing field of a validation failure and the text it gets: the table's text with
// "{field}" and each of args' "{name}" replaced, or literal when set (a declared field's own).
struct FieldProblem {
    std::string field;
    FieldText text;
    std::vector<std::pair<std::string, std::string>> args = {};
    std::string literal = {};
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
    ApiError(int http_status, Code error_code, std::vector<FieldProblem> field_texts)
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
    std::vector<FieldProblem> fields; // empty unless a validation failure
    Code fallback = Code::ok;
    // "{name}" → value in the code's text (a declared collection's {label}).
    std::vector<std::pair<std::string, std::string>> args;
    std::vector<std::pair<std::string, std::string>> headers;
};

// Code → text, from conf/code-message.properties (or its English twin, code-message.en.properties);
// a configured text always wins.
class Messages {
  public:
    // Reads `code-message[<code>]=<text>` and `code-message[<code>.<key>]=<text>` lines (UTF-8,
    // \uXXXX escapes); throws std::runtime_error naming file and line on a malformed line.
    static Messages load(const std::string &path);
    // Same, from text already read (origin names it in errors).
    static Messages parse(const std::string &text, const std::string &origin);

    bool has(Code code) const { return texts_.count(std::to_string(static_cast<int>(code))) != 0; }
    bool has(FieldText text) const { return texts_.count(key(text)) != 0; }
    // The configured text of code, else the built-in English text: that of
    // conf/code-message.en.properties, compiled in.
    std::string text(Code code) const;
    // The configured text of a validation failure, else the built-in English text (as above);
    // "{field}" in it stands for the field's name.
    std::string text(FieldText text) const;

    // The table's key of a field text: "10030.<key>".
    static std::string key(FieldText text);
    // Every code the service sends, and every field text, as the table keys them.
    static std::vector<std::string> known_keys();

  private:
    std::unordered_map<std::string, std::string> texts_; // "<code>" or "<code>.<key>" → text
};

// text with each "{name}" of args replaced by its value.
std::string with_args(std::string text, const std::vector<std::pair<std::string, std::string>> &args);

// {"code", "message", "request"}: the body of every write success and every failure.
Json::Value make_envelope(Code code, Json::Value message, const std::string &request_line);

// The envelope of error for the request line, with the code and text the table decides.
Json::Value error_envelope(const ApiError &error, const Messages &messages,
                           const std::string &request_line);

} // namespace cms
