// Message table loading and envelope building. The texts clients see live in
// conf/code-message.properties; the English texts below are only a fallback when a code is missing.
#include "base/errors.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/text.h"
#include "base/utf8.h"

namespace cms {

namespace {

struct Fallback {
    Code code;
    const char *text;
};

// Used only when the configured table lacks a code, so that no envelope goes out without a text.
const Fallback k_fallback_texts[] = {
    {Code::ok, "ok"},
    {Code::book_created, "book created"},
    {Code::password_changed, "password changed"},
    {Code::user_deleted, "user deleted"},
    {Code::user_updated, "user updated"},
    {Code::group_updated, "group updated"},
    {Code::group_deleted, "group deleted"},
    {Code::permissions_granted, "permissions granted"},
    {Code::permissions_removed, "permissions removed"},
    {Code::user_registered, "user registered"},
    {Code::book_updated, "book updated"},
    {Code::book_deleted, "book deleted"},
    {Code::group_created, "group created"},
    {Code::internal, "internal server error"},
    {Code::permission_denied, "permission denied"},
    {Code::auth_header_missing, "authorization header missing"},
    {Code::auth_header_malformed, "authorization header malformed"},
    {Code::not_found, "resource not found"},
    {Code::user_not_found, "user not found"},
    {Code::book_not_found, "book not found"},
    {Code::register_group_missing, "group not found, cannot create the user"},
    {Code::group_not_found, "group not found"},
    {Code::no_file, "no file found"},
    {Code::group_has_users, "the group still has users"},
    {Code::parameter, "invalid parameters"},
    {Code::login_failed, "wrong username or password"},
    {Code::old_password_wrong, "wrong password"},
    {Code::access_token_bad, "access token invalid"},
    {Code::refresh_token_bad, "refresh token invalid"},
    {Code::access_token_expired, "access token expired"},
    {Code::refresh_token_expired, "refresh token expired"},
    {Code::forbidden, "forbidden"},
    {Code::username_taken, "username taken"},
    {Code::group_name_taken, "group name taken"},
    {Code::root_group_no_users, "the root group cannot receive users"},
    {Code::root_group_undeletable, "the root group cannot be deleted"},
    {Code::guest_group_undeletable, "the guest group cannot be deleted"},
    {Code::email_taken, "email taken"},
    {Code::group_assign_missing, "cannot assign a user to a nonexistent group"},
    {Code::root_user_regroup, "the root user's groups cannot change"},
    {Code::root_user_undeletable, "the root user cannot be deleted"},
    {Code::method_not_allowed, "method not allowed"},
    {Code::file_too_large, "file too large"},
    {Code::too_many_files, "too many files"},
    {Code::file_extension, "file extension not allowed"},
    {Code::too_many_requests, "too many requests, try again later"},
    {Code::captcha_wrong, "enter the correct captcha"},
    {Code::type_error, "wrong type"},
    {Code::body_empty, "request body must not be empty"},
    {Code::body_too_large, "request body too large"},
    {Code::unsupported_media_type, "request body must be application/json"},
    {Code::db_unavailable, "database unavailable, try again later"},
    {Code::permission_not_found, "permission not found"},
    {Code::multipart_required, "request body must be multipart/form-data"},
    {Code::multipart_malformed, "multipart body cannot be parsed"},
    {Code::file_store_full, "file store is full"},
    {Code::json_malformed, "request body is not valid JSON"},
    {Code::json_too_deep, "JSON nested too deeply"},
    {Code::json_duplicate_key, "duplicate key in JSON"},
    {Code::body_not_utf8, "request body is not valid UTF-8"},
    {Code::json_not_object, "request body must be a JSON object"},
    {Code::http_malformed, "malformed request"},
    {Code::http_timeout, "request timeout"},
    {Code::uri_too_long, "request URI too long"},
    {Code::headers_too_large, "request headers too large"},
    {Code::upstream_timeout, "the service timed out, try again later"},
    {Code::idempotency_key_invalid, "Idempotency-Key must be 1 to 100 visible ASCII characters"},
    {Code::idempotency_key_reused, "this Idempotency-Key was used for another request"},
    {Code::idempotency_key_busy, "a request with this Idempotency-Key is still being processed"},
    {Code::status_no_pool, "no pool: this process is not a cms-fcgi pool (CGI or one worker)"},
};

struct FieldFallback {
    FieldText text;
    const char *key;
    const char *english;
};

// One row per FieldText. Keys are Lin CMS's ValidationMessages.properties names where it has the
// text, so that its translations map over; the English is the fallback, as above.
const FieldFallback k_field_texts[] = {
    {FieldText::id_positive, "id.positive", "id must be a positive integer"},
    {FieldText::page_count_min, "page.count.min", "count must be a positive integer"},
    {FieldText::page_count_max, "page.count.max", "count must be at most 30"},
    {FieldText::page_number_min, "page.number.min", "page must be a non-negative integer"},
    {FieldText::group_id_positive, "group.id.positive", "group id must be a positive integer"},
    {FieldText::group_id_not_null, "group.id.not-null", "group id is required"},
    {FieldText::group_ids_positive, "group.ids.long-list",
     "every group id must be a positive integer"},
    {FieldText::group_ids_not_empty, "group.ids.not-empty", "choose at least one group"},
    {FieldText::group_name_not_blank, "group.name.not-blank", "group name is required"},
    {FieldText::group_name_length, "group.name.length",
     "group name must be at most 60 characters"},
    {FieldText::group_info_length, "group.info.length",
     "group description must be at most 255 characters"},
    {FieldText::permission_id_positive, "permission.id.positive",
     "permission id must be a positive integer"},
    {FieldText::permission_id_not_null, "permission.id.not-null", "permission id is required"},
    {FieldText::permission_ids_not_empty, "permission.ids.long-list",
     "give permission ids, none of them empty"},
    {FieldText::email, "email", "email address is not valid"},
    {FieldText::username_not_blank, "username.not-blank", "username is required"},
    {FieldText::username_length, "username.length", "username must be 2 to 10 characters"},
    {FieldText::nickname_length, "nickname.length", "nickname must be 2 to 10 characters"},
    {FieldText::avatar_length, "avatar.length", "avatar URL must be at most 500 characters"},
    {FieldText::password_new_not_blank, "password.new.not-blank", "password is required"},
    {FieldText::password_new_pattern, "password.new.pattern",
     "password must be 6 to 22 characters of letters, digits and _*&$#@"},
    {FieldText::password_confirm_not_blank, "password.confirm.not-blank",
     "password confirmation is required"},
    {FieldText::password_old_not_blank, "password.old.not-blank", "old password is required"},
    {FieldText::password_old_length, "password.old.length", "wrong password"},
    {FieldText::password_equal_field, "password.equal-field", "the passwords differ"},
    {FieldText::login_password_length, "login.password.length", "wrong username or password"},
    {FieldText::book_title_not_empty, "book.title.not-empty", "title is required"},
    {FieldText::book_title_length, "book.title.length", "title must be at most 50 characters"},
    {FieldText::book_author_not_empty, "book.author.not-empty", "author is required"},
    {FieldText::book_author_length, "book.author.length",
     "author must be at most 30 characters"},
    {FieldText::book_summary_not_empty, "book.summary.not-empty", "summary is required"},
    {FieldText::book_summary_length, "book.summary.length",
     "summary must be at most 1000 characters"},
    {FieldText::book_image_length, "book.image.length",
     "image URL must be at most 100 characters"},
    {FieldText::book_query_utf8, "book.q.utf8", "q must be valid UTF-8 text"},
    {FieldText::log_time_format, "log.time.format", "time must be written YYYY-MM-DD HH:mm:ss"},
    {FieldText::log_filter_format, "log.filter.format", "malformed parameter"},
    {FieldText::wrong_type, "field.type", "{field} has the wrong type"},
    {FieldText::ids_too_many, "ids.max-size", "at most 100 items"},
};
static_assert(sizeof k_field_texts / sizeof k_field_texts[0] ==
                  static_cast<size_t>(FieldText::count_),
              "every FieldText has a row in k_field_texts");

const FieldFallback &field_row(FieldText text) {
    for (const FieldFallback &row : k_field_texts)
        if (row.text == text)
            return row;
    throw std::logic_error("no row in k_field_texts for a FieldText");
}

// text with its "{field}", if any, replaced by field.
std::string with_field(std::string text, const std::string &field) {
    static const std::string k_placeholder = "{field}";
    size_t at = text.find(k_placeholder);
    if (at != std::string::npos)
        text.replace(at, k_placeholder.size(), field);
    return text;
}

void append_utf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// Reads the four hex digits after "\u" at text[i]; returns -1 when they are not there.
long read_u_escape(const std::string &text, size_t i) {
    if (i + 6 > text.size() || text[i] != '\\' || text[i + 1] != 'u')
        return -1;
    long v = 0;
    for (size_t k = i + 2; k < i + 6; ++k) {
        int h = text::hex_digit(text[k]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

// Decodes the \uXXXX escapes (and surrogate pairs) of a properties value; throws on a bad one.
std::string unescape(const std::string &value) {
    std::string out;
    for (size_t i = 0; i < value.size();) {
        if (value[i] != '\\') {
            out += value[i++];
            continue;
        }
        long cp = read_u_escape(value, i);
        if (cp < 0)
            throw std::invalid_argument("bad escape (only \\uXXXX is accepted)");
        i += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            long low = read_u_escape(value, i);
            if (low < 0xDC00 || low > 0xDFFF)
                throw std::invalid_argument("unpaired surrogate escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            i += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            throw std::invalid_argument("unpaired surrogate escape");
        }
        append_utf8(out, static_cast<unsigned>(cp));
    }
    return out;
}

} // namespace

Messages Messages::parse(const std::string &text, const std::string &origin) {
    static const std::string k_prefix = "code-message[";
    Messages messages;
    std::istringstream in(text);
    std::string line;
    for (int line_no = 1; std::getline(in, line); ++line_no) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        size_t start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line[start] == '#' || line[start] == '!')
            continue;
        std::string where = "message file '" + origin + "' line " + std::to_string(line_no) + ": ";
        size_t close = line.find("]", start);
        size_t eq = close == std::string::npos ? close : line.find_first_not_of(" \t", close + 1);
        if (line.compare(start, k_prefix.size(), k_prefix) != 0 || eq == std::string::npos ||
            line[eq] != '=')
            throw std::runtime_error(where + "expected 'code-message[<code>]=<text>'");
        std::string key = line.substr(start + k_prefix.size(), close - start - k_prefix.size());
        // <code> or <code>.<key>: a text of the code's, such as a field text of 10030.
        std::string number = key.substr(0, key.find('.'));
        if (number.empty() || number.size() > 6 ||
            number.find_first_not_of("0123456789") != std::string::npos)
            throw std::runtime_error(where + "code '" + number + "' is not a number");
        if (number.size() < key.size() &&
            (key.size() == number.size() + 1 ||
             key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-", number.size() + 1) !=
                 std::string::npos))
            throw std::runtime_error(where + "key '" + key +
                                     "' is not <code>.<key> (lower-case letters, digits, . and -)");
        std::string value = line.substr(eq + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        try {
            value = unescape(value);
        } catch (const std::invalid_argument &e) {
            throw std::runtime_error(where + e.what());
        }
        if (!utf8::valid(value))
            throw std::runtime_error(where + "text is not valid UTF-8");
        messages.texts_[std::to_string(std::stoi(number)) + key.substr(number.size())] = value;
    }
    return messages;
}

Messages Messages::load(const std::string &path) {
    std::ifstream file(path);
    if (!file)
        throw std::runtime_error("cannot open message file '" + path + "'");
    std::ostringstream text;
    text << file.rdbuf();
    return parse(text.str(), path);
}

std::string Messages::text(Code code) const {
    auto it = texts_.find(std::to_string(static_cast<int>(code)));
    if (it != texts_.end())
        return it->second;
    for (const Fallback &f : k_fallback_texts)
        if (f.code == code)
            return f.text;
    return "";
}

std::string Messages::text(FieldText text) const {
    auto it = texts_.find(key(text));
    return it != texts_.end() ? it->second : field_row(text).english;
}

std::string Messages::key(FieldText text) {
    return std::to_string(static_cast<int>(Code::parameter)) + "." + field_row(text).key;
}

std::vector<std::string> Messages::known_keys() {
    std::vector<std::string> keys;
    for (const Fallback &f : k_fallback_texts)
        keys.push_back(std::to_string(static_cast<int>(f.code)));
    for (const FieldFallback &f : k_field_texts)
        keys.push_back(key(f.text));
    return keys;
}

Json::Value make_envelope(Code code, Json::Value message, const std::string &request_line) {
    Json::Value envelope(Json::objectValue);
    envelope["code"] = static_cast<int>(code);
    envelope["message"] = std::move(message);
    envelope["request"] = request_line;
    return envelope;
}

Json::Value error_envelope(const ApiError &error, const Messages &messages,
                           const std::string &request_line) {
    Code code = error.code;
    Code text_code = error.text_code;
    if (error.fallback != Code::ok && !messages.has(code)) {
        code = error.fallback;
        text_code = error.fallback;
    }
    if (!error.fields.empty()) {
        Json::Value fields(Json::objectValue);
        for (const FieldProblem &problem : error.fields)
            fields[problem.field] = with_field(messages.text(problem.text), problem.field);
        return make_envelope(code, fields, request_line);
    }
    return make_envelope(code, messages.text(text_code), request_line);
}

} // namespace cms
