// Validation helpers shared by every handler; each rule names its text (FieldText), whose words
// live in the message table.
#include "http/validate.h"

#include <algorithm>

#include "base/errors.h"
#include "base/utf8.h"
#include "http/request.h"

namespace cms::validate {

namespace {

constexpr int64_t k_max_id = 4294967295; // int unsigned columns
constexpr int64_t k_max_page_count = 30;
// page * count must not overflow an OFFSET; nobody pages this far.
constexpr int64_t k_max_page = 1000000000;
// Far above the groups or permissions anyone assigns at once; bounds the rows one request locks.
// The text of FieldText::ids_too_many names the number.
constexpr Json::ArrayIndex k_max_id_list = 100;

// Parses a decimal positive integer up to max; nullopt otherwise (signs, spaces, 0 rejected).
std::optional<int64_t> positive(const std::string &text, int64_t max) {
    if (text.empty() || text.size() > 19)
        return std::nullopt;
    int64_t n = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
        if (n > max)
            return std::nullopt;
    }
    if (n < 1)
        return std::nullopt;
    return n;
}

// Digits only (leading zeros allowed), read up to ceiling: a larger number gives ceiling, so
// that "above the limit" and "not a number" stay apart however long the digits run.
std::optional<int64_t> whole_number(const std::string &text, int64_t ceiling) {
    if (text.empty())
        return std::nullopt;
    int64_t n = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
        if (n >= ceiling)
            n = ceiling;
    }
    return n;
}

// Ids as strings are at most 10 digits: every id column value, and no more, fits.
constexpr size_t k_max_id_digits = 10;

std::optional<int64_t> id_value(const Json::Value &value) {
    if (value.isString()) {
        std::string digits = value.asString();
        if (digits.size() > k_max_id_digits)
            return std::nullopt;
        return positive(digits, k_max_id);
    }
    // isIntegral() is true for 2.0 too; an id must be written as an integer.
    if (value.type() != Json::intValue && value.type() != Json::uintValue)
        return std::nullopt;
    if (!value.isInt64())
        return std::nullopt;
    int64_t n = value.asInt64();
    if (n < 1 || n > k_max_id)
        return std::nullopt;
    return n;
}

} // namespace

void Problems::add(const std::string &field, FieldText text) {
    for (const FieldProblem &problem : fields_)
        if (problem.field == field)
            return;
    fields_.push_back(FieldProblem{field, text});
}

void Problems::add(FieldProblem problem) {
    for (const FieldProblem &known : fields_)
        if (known.field == problem.field)
            return;
    fields_.push_back(std::move(problem));
}

void Problems::check() const {
    if (!empty())
        throw ApiError(400, Code::parameter, fields_);
}

bool datetime(const std::string &text) {
    static const char k_shape[] = "dddd-dd-dd dd:dd:dd";
    if (text.size() != sizeof k_shape - 1)
        return false;
    for (size_t i = 0; i < text.size(); ++i)
        if (k_shape[i] == 'd' ? (text[i] < '0' || text[i] > '9') : text[i] != k_shape[i])
            return false;
    auto field = [&text](size_t pos, size_t len) { return std::stoi(text.substr(pos, len)); };
    int year = field(0, 4), month = field(5, 2), day = field(8, 2);
    static const int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1)
        return false;
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    int days = k_days[month - 1] + (month == 2 && leap ? 1 : 0);
    return day <= days && field(11, 2) <= 23 && field(14, 2) <= 59 && field(17, 2) <= 59;
}

size_t length(const std::string &text) { return utf8::length(text).value_or(text.size()); }

int64_t path_id(const std::string &text, const char *field) {
    std::optional<int64_t> id = positive(text, k_max_id);
    if (!id) {
        Problems problems;
        problems.add(field, FieldText::id_positive);
        problems.check();
    }
    return *id;
}

std::optional<std::string> string_member(const Json::Value &body, const char *name,
                                         Problems &problems) {
    const Json::Value &value = body[name];
    if (value.isNull())
        return std::nullopt;
    if (!value.isString()) {
        problems.add(name, FieldText::wrong_type);
        return std::nullopt;
    }
    return value.asString();
}

std::string required_text(const Json::Value &body, const char *name, size_t max,
                          FieldText missing_text, FieldText long_text, Problems &problems) {
    bool wrong_type = !body[name].isNull() && !body[name].isString();
    std::optional<std::string> text = string_member(body, name, problems);
    if (wrong_type)
        return {};
    if (!text || text->empty()) {
        problems.add(name, missing_text);
        return {};
    }
    if (length(*text) > max) {
        problems.add(name, long_text);
        return {};
    }
    return *text;
}

std::optional<std::string> optional_text(const Json::Value &body, const char *name, size_t max,
                                         FieldText too_long_text, Problems &problems) {
    std::optional<std::string> text = string_member(body, name, problems);
    if (text && length(*text) > max) {
        problems.add(name, too_long_text);
        return std::nullopt;
    }
    return text;
}

std::optional<int64_t> id_member(const Json::Value &body, const char *name, FieldText bad_text,
                                 Problems &problems) {
    const Json::Value &value = body[name];
    if (value.isNull())
        return std::nullopt;
    std::optional<int64_t> id = id_value(value);
    if (!id)
        problems.add(name, bad_text);
    return id;
}

int64_t required_id_member(const Json::Value &body, const char *name, FieldText bad_text,
                           FieldText missing_text, Problems &problems) {
    std::optional<int64_t> id = id_member(body, name, bad_text, problems);
    if (!id)
        problems.add(name, missing_text);
    return id.value_or(0);
}

std::optional<std::vector<int64_t>> id_list_member(const Json::Value &body, const char *name,
                                                   FieldText bad_text, Problems &problems) {
    const Json::Value &value = body[name];
    if (value.isNull())
        return std::nullopt;
    if (!value.isArray()) {
        problems.add(name, bad_text);
        return std::nullopt;
    }
    if (value.size() > k_max_id_list) {
        problems.add(name, FieldText::ids_too_many);
        return std::nullopt;
    }
    std::vector<int64_t> ids;
    for (const Json::Value &item : value) {
        std::optional<int64_t> id = id_value(item);
        if (!id) {
            problems.add(name, bad_text);
            return std::nullopt;
        }
        ids.push_back(*id);
    }
    // A set: sorted (rows are then locked in one order, so two requests cannot deadlock on them)
    // and without repeats.
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

// The shipped texts are Lin CMS's (doc/lin-cms.md §2.4), word for word for its clients, including
// 分页数量必须小于30 for a count above 30 and 分页页码必须为正整数 for a negative page.
Page page_query(const Request &req) {
    Page page;
    Problems problems;
    std::optional<std::string> count = req.query("count");
    if (count && !count->empty()) {
        std::optional<int64_t> n = whole_number(*count, k_max_page_count + 1);
        if (!n || *n < 1)
            problems.add("count", FieldText::page_count_min);
        else if (*n > k_max_page_count)
            problems.add("count", FieldText::page_count_max);
        else
            page.count = *n;
    }
    std::optional<std::string> number = req.query("page");
    if (number && !number->empty()) {
        std::optional<int64_t> n = whole_number(*number, k_max_page + 1);
        if (!n || *n > k_max_page)
            problems.add("page", FieldText::page_number_min);
        else
            page.page = *n;
    }
    problems.check();
    return page;
}

std::optional<int64_t> id_query(const Request &req, const char *name, FieldText bad_text,
                                Problems &problems) {
    std::optional<std::string> text = req.query(name);
    if (!text || text->empty())
        return std::nullopt;
    std::optional<int64_t> id = positive(*text, k_max_id);
    if (!id)
        problems.add(name, bad_text);
    return id;
}

} // namespace cms::validate
