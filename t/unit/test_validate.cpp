// Unit tests for src/http/validate.cpp: each rule at its boundaries (lengths in characters, id range),
// the texts of missing, empty and mistyped members, and how Problems collects fields.
#include "base/errors.h"
#include "field_texts.h"
#include "http/request.h"
#include "http/validate.h"

#include <cppunit/extensions/HelperMacros.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using cms::ApiError;
using cms::Code;
using cms::FieldText;
using cms::validate::id_list_member;
using cms::validate::id_member;
using cms::validate::required_id_member;
using cms::validate::optional_text;
using cms::validate::path_id;
using cms::validate::Problems;
using cms::validate::required_text;

namespace {

constexpr FieldText k_missing = FieldText::book_title_not_empty;
constexpr FieldText k_long = FieldText::book_title_length;
constexpr FieldText k_bad_ids = FieldText::permission_id_positive;
const char *const k_missing_text = "必须传入图书名";
const char *const k_long_text = "图书名不能超过50字符";
const char *const k_bad_ids_text = "权限id必须正整数";

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

// The fields of the ApiError that problems.check() throws; fails the test when it does not throw.
Json::Value fields_of(const Problems &problems) {
    try {
        problems.check();
    } catch (const ApiError &e) {
        CPPUNIT_ASSERT_EQUAL(400, e.status);
        CPPUNIT_ASSERT_EQUAL(num(Code::parameter), num(e.code));
        return shipped_field_texts(e);
    }
    CPPUNIT_FAIL("Problems::check did not throw");
}

// The fields of the 400/10030 that path_id throws for text; fails the test when it accepts text.
Json::Value path_id_fields(const std::string &text, const char *field = "id") {
    try {
        path_id(text, field);
    } catch (const ApiError &e) {
        CPPUNIT_ASSERT_EQUAL_MESSAGE(text, 400, e.status);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(text, num(Code::parameter), num(e.code));
        return shipped_field_texts(e);
    }
    CPPUNIT_FAIL("path_id accepted '" + text + "'");
}

// The single problem a rule recorded for field, "" when none.
std::string problem_of(const Problems &problems, const char *field) {
    if (problems.empty())
        return "";
    return fields_of(problems)[field].asString();
}

Json::Value one_field(const char *name, const char *text) {
    Json::Value fields(Json::objectValue);
    fields[name] = text;
    return fields;
}

// The ids id_list_member returns for value, or "rejected: <text>" when it records a problem.
std::string ids_of(const Json::Value &value) {
    Problems problems;
    std::optional<std::vector<int64_t>> ids =
        id_list_member(body_with("ids", value), "ids", k_bad_ids, problems);
    if (!problems.empty())
        return "rejected: " + problem_of(problems, "ids");
    if (!ids)
        return "absent";
    std::string out = "[";
    for (int64_t id : *ids)
        out += (out.size() > 1 ? "," : "") + std::to_string(id);
    return out + "]";
}

Json::Value array_of(const Json::Value &item) {
    Json::Value array(Json::arrayValue);
    array.append(1);
    array.append(item);
    return array;
}

} // namespace

class ValidateTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(ValidateTest);
    CPPUNIT_TEST(path_id_accepts_one_and_the_largest_unsigned_int);
    CPPUNIT_TEST(path_id_rejects_everything_else_with_the_id_field);
    CPPUNIT_TEST(path_id_names_the_given_field);
    CPPUNIT_TEST(required_text_accepts_50_cjk_characters);
    CPPUNIT_TEST(required_text_rejects_51_cjk_characters);
    CPPUNIT_TEST(required_text_accepts_50_emoji);
    CPPUNIT_TEST(required_text_rejects_51_emoji);
    CPPUNIT_TEST(required_text_missing_null_and_empty_give_the_missing_text);
    CPPUNIT_TEST(required_text_of_wrong_type_gives_the_type_text);
    CPPUNIT_TEST(optional_text_absent_or_null_is_nullopt_without_problem);
    CPPUNIT_TEST(optional_text_accepts_up_to_max_characters);
    CPPUNIT_TEST(optional_text_over_max_gives_its_text);
    CPPUNIT_TEST(optional_text_of_wrong_type_gives_the_type_text);
    CPPUNIT_TEST(problems_without_any_do_not_throw);
    CPPUNIT_TEST(problems_report_every_field);
    CPPUNIT_TEST(problems_keep_the_first_problem_of_a_field);
    CPPUNIT_TEST(id_list_accepts_positive_ids_and_empty_array);
    CPPUNIT_TEST(id_list_of_100_passes_and_101_is_a_problem);
    CPPUNIT_TEST(id_list_absent_or_null_is_absent);
    CPPUNIT_TEST(id_list_rejects_non_arrays);
    CPPUNIT_TEST(id_list_rejects_zero_negative_and_too_large);
    CPPUNIT_TEST(id_list_accepts_ids_written_as_decimal_strings);
    CPPUNIT_TEST(id_member_accepts_a_decimal_string_and_refuses_other_strings);
    CPPUNIT_TEST(required_id_member_names_missing_and_bad_ids_apart);
    CPPUNIT_TEST(id_list_rejects_other_strings_and_other_types);
    CPPUNIT_TEST(id_list_rejects_fractional_floats);
    CPPUNIT_TEST(id_list_rejects_integral_valued_floats);
    CPPUNIT_TEST(datetime_accepts_february_29_of_leap_years);
    CPPUNIT_TEST(datetime_refuses_february_29_of_other_years);
    CPPUNIT_TEST(datetime_refuses_month_00_and_13);
    CPPUNIT_TEST(datetime_refuses_day_00_32_and_april_31);
    CPPUNIT_TEST(datetime_accepts_the_last_second_of_a_day);
    CPPUNIT_TEST(datetime_refuses_hour_24_minute_60_second_60);
    CPPUNIT_TEST(datetime_refuses_other_shapes);
    CPPUNIT_TEST(page_query_defaults_to_page_0_count_10);
    CPPUNIT_TEST(page_query_accepts_page_0_and_count_30);
    CPPUNIT_TEST(page_query_count_over_30_gives_the_max_text);
    CPPUNIT_TEST(page_query_count_far_over_30_gives_the_max_text);
    CPPUNIT_TEST(page_query_reads_leading_zeros);
    CPPUNIT_TEST(page_query_count_0_or_not_a_number_gives_the_positive_text);
    CPPUNIT_TEST(page_query_negative_page_gives_the_page_text);
    CPPUNIT_TEST(page_query_reports_count_and_page_together);
    CPPUNIT_TEST_SUITE_END();

  public:
    void path_id_accepts_one_and_the_largest_unsigned_int() {
        CPPUNIT_ASSERT_EQUAL(int64_t(1), path_id("1"));
        CPPUNIT_ASSERT_EQUAL(int64_t(4294967295), path_id("4294967295"));
        CPPUNIT_ASSERT_EQUAL(int64_t(42), path_id("42"));
    }

    void path_id_rejects_everything_else_with_the_id_field() {
        for (const char *text : {"0", "-1", "4294967296", "1.5", "abc", "", "+1", " 1", "1 ", "00",
                                 "99999999999999999999999", "1e3", "0x10"}) {
            CPPUNIT_ASSERT_THROW_MESSAGE(text, path_id(text), ApiError);
            CPPUNIT_ASSERT_EQUAL_MESSAGE(text, one_field("id", "id必须为正整数"),
                                         path_id_fields(text));
        }
    }

    void path_id_names_the_given_field() {
        CPPUNIT_ASSERT_EQUAL(one_field("gid", "id必须为正整数"), path_id_fields("x", "gid"));
    }

    void required_text_accepts_50_cjk_characters() {
        Problems problems;
        std::string title = repeated("汉", 50);
        CPPUNIT_ASSERT_EQUAL(title, required_text(body_with("title", title), "title", 50, k_missing,
                                                  k_long, problems));
        CPPUNIT_ASSERT(problems.empty());
    }

    void required_text_rejects_51_cjk_characters() {
        Problems problems;
        std::string title = repeated("汉", 51);
        CPPUNIT_ASSERT_EQUAL(std::string(""), required_text(body_with("title", title), "title", 50,
                                                            k_missing, k_long, problems));
        CPPUNIT_ASSERT_EQUAL(std::string(k_long_text), problem_of(problems, "title"));
    }

    void required_text_accepts_50_emoji() {
        Problems problems;
        std::string title = repeated("😀", 50);
        CPPUNIT_ASSERT_EQUAL(title, required_text(body_with("title", title), "title", 50, k_missing,
                                                  k_long, problems));
        CPPUNIT_ASSERT(problems.empty());
    }

    void required_text_rejects_51_emoji() {
        Problems problems;
        required_text(body_with("title", repeated("😀", 51)), "title", 50, k_missing, k_long,
                      problems);
        CPPUNIT_ASSERT_EQUAL(std::string(k_long_text), problem_of(problems, "title"));
    }

    void required_text_missing_null_and_empty_give_the_missing_text() {
        for (const Json::Value &body :
             {Json::Value(Json::objectValue), body_with("title", Json::Value()),
              body_with("title", "")}) {
            Problems problems;
            CPPUNIT_ASSERT_EQUAL(std::string(""),
                                 required_text(body, "title", 50, k_missing, k_long, problems));
            CPPUNIT_ASSERT_EQUAL(std::string(k_missing_text), problem_of(problems, "title"));
        }
    }

    void required_text_of_wrong_type_gives_the_type_text() {
        for (const Json::Value &value :
             {Json::Value(5), Json::Value(true), Json::Value(Json::arrayValue),
              Json::Value(Json::objectValue)}) {
            Problems problems;
            required_text(body_with("title", value), "title", 50, k_missing, k_long, problems);
            CPPUNIT_ASSERT_EQUAL(std::string("title字段类型错误"), problem_of(problems, "title"));
        }
    }

    void optional_text_absent_or_null_is_nullopt_without_problem() {
        Problems problems;
        CPPUNIT_ASSERT(
            !optional_text(Json::Value(Json::objectValue), "summary", 5, k_long, problems));
        CPPUNIT_ASSERT(
            !optional_text(body_with("summary", Json::Value()), "summary", 5, k_long, problems));
        CPPUNIT_ASSERT(problems.empty());
    }

    void optional_text_accepts_up_to_max_characters() {
        Problems problems;
        CPPUNIT_ASSERT_EQUAL(
            std::string("汉汉汉😀😀"),
            optional_text(body_with("summary", "汉汉汉😀😀"), "summary", 5, k_long, problems)
                .value_or("(nullopt)"));
        CPPUNIT_ASSERT_EQUAL(std::string(""),
                             optional_text(body_with("summary", ""), "summary", 5, k_long, problems)
                                 .value_or("(nullopt)"));
        CPPUNIT_ASSERT(problems.empty());
    }

    void optional_text_over_max_gives_its_text() {
        Problems problems;
        CPPUNIT_ASSERT(
            !optional_text(body_with("summary", "汉汉汉😀😀x"), "summary", 5, k_long, problems));
        CPPUNIT_ASSERT_EQUAL(std::string(k_long_text), problem_of(problems, "summary"));
    }

    void optional_text_of_wrong_type_gives_the_type_text() {
        Problems problems;
        CPPUNIT_ASSERT(!optional_text(body_with("summary", 3), "summary", 5, k_long, problems));
        CPPUNIT_ASSERT_EQUAL(std::string("summary字段类型错误"), problem_of(problems, "summary"));
    }

    void problems_without_any_do_not_throw() {
        Problems problems;
        CPPUNIT_ASSERT(problems.empty());
        CPPUNIT_ASSERT_NO_THROW(problems.check());
    }

    void problems_report_every_field() {
        Json::Value body(Json::objectValue);
        body["title"] = "";
        body["author"] = 7;
        body["summary"] = repeated("汉", 1001);
        Problems problems;
        required_text(body, "title", 50, k_missing, k_long, problems);
        required_text(body, "author", 30, FieldText::book_author_not_empty,
                      FieldText::book_author_length, problems);
        optional_text(body, "summary", 1000, FieldText::book_summary_length, problems);
        Json::Value expected(Json::objectValue);
        expected["title"] = k_missing_text;
        expected["author"] = "author字段类型错误";
        expected["summary"] = "图书综述不能超过1000字符";
        CPPUNIT_ASSERT_THROW(problems.check(), ApiError);
        CPPUNIT_ASSERT_EQUAL(expected, fields_of(problems));
    }

    void problems_keep_the_first_problem_of_a_field() {
        Problems problems;
        problems.add("title", FieldText::book_title_not_empty);
        problems.add("title", FieldText::book_title_length);
        problems.add("author", FieldText::book_author_length);
        Json::Value expected(Json::objectValue);
        expected["title"] = "必须传入图书名";
        expected["author"] = "图书作者名不能超过30字符";
        CPPUNIT_ASSERT_EQUAL(expected, fields_of(problems));
    }

    void id_list_accepts_positive_ids_and_empty_array() {
        Json::Value ids(Json::arrayValue);
        CPPUNIT_ASSERT_EQUAL(std::string("[]"), ids_of(ids));
        ids.append(3);
        ids.append(1);
        ids.append(Json::Value(Json::UInt64(4294967295)));
        ids.append(3);
        // A sorted set: rows get locked in one order, and a repeat grants nothing twice.
        CPPUNIT_ASSERT_EQUAL(std::string("[1,3,4294967295]"), ids_of(ids));
    }

    void id_list_of_100_passes_and_101_is_a_problem() {
        Json::Value ids(Json::arrayValue);
        for (int i = 1; i <= 100; ++i)
            ids.append(i);
        Json::Value body(Json::objectValue);
        body["ids"] = ids;
        Problems ok;
        CPPUNIT_ASSERT_EQUAL(size_t(100), id_list_member(body, "ids", k_bad_ids, ok)->size());
        CPPUNIT_ASSERT(ok.empty());
        body["ids"].append(101);
        Problems problems;
        CPPUNIT_ASSERT(!id_list_member(body, "ids", k_bad_ids, problems));
        CPPUNIT_ASSERT(!problems.empty());
    }

    void id_list_absent_or_null_is_absent() {
        Problems problems;
        CPPUNIT_ASSERT(!id_list_member(Json::Value(Json::objectValue), "ids", k_bad_ids, problems));
        CPPUNIT_ASSERT_EQUAL(std::string("absent"), ids_of(Json::Value()));
        CPPUNIT_ASSERT(problems.empty());
    }

    void id_list_rejects_non_arrays() {
        const std::string rejected = std::string("rejected: ") + k_bad_ids_text;
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(1));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of("1,2"));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(Json::Value(Json::objectValue)));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(true));
    }

    void id_list_rejects_zero_negative_and_too_large() {
        const std::string rejected = std::string("rejected: ") + k_bad_ids_text;
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of(0)));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of(-1)));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of(Json::Value(Json::Int64(4294967296)))));
    }

    // As Spring's JSON binding converts them: what an older client sends after a page reload.
    void id_list_accepts_ids_written_as_decimal_strings() {
        CPPUNIT_ASSERT_EQUAL(std::string("[1,2]"), ids_of(array_of("2")));
        CPPUNIT_ASSERT_EQUAL(std::string("[1,7]"), ids_of(array_of("007")));
        CPPUNIT_ASSERT_EQUAL(std::string("[1,4294967295]"), ids_of(array_of("4294967295")));
    }

    void id_member_accepts_a_decimal_string_and_refuses_other_strings() {
        Problems ok;
        CPPUNIT_ASSERT_EQUAL(int64_t(5), *id_member(body_with("id", "5"), "id", k_bad_ids, ok));
        CPPUNIT_ASSERT(ok.empty());
        for (const char *bad : {"", "0", "-1", "+2", " 2", "2 ", "2a", "0x2", "1.0", "1e2",
                                "4294967296", "00000000001", "２"}) {
            Problems problems;
            CPPUNIT_ASSERT_MESSAGE(bad, !id_member(body_with("id", bad), "id", k_bad_ids, problems));
            CPPUNIT_ASSERT_EQUAL_MESSAGE(bad, std::string(k_bad_ids_text), problem_of(problems, "id"));
        }
    }

    void required_id_member_names_missing_and_bad_ids_apart() {
        Problems missing;
        required_id_member(Json::Value(Json::objectValue), "group_id", FieldText::group_id_positive,
                           FieldText::group_id_not_null, missing);
        CPPUNIT_ASSERT_EQUAL(std::string("分组id不可为空"), problem_of(missing, "group_id"));
        Problems bad;
        required_id_member(body_with("group_id", "x"), "group_id", FieldText::group_id_positive,
                           FieldText::group_id_not_null, bad);
        CPPUNIT_ASSERT_EQUAL(std::string("分组id必须为正整数"), problem_of(bad, "group_id"));
    }

    void id_list_rejects_other_strings_and_other_types() {
        const std::string rejected = std::string("rejected: ") + k_bad_ids_text;
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of("2x")));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of("")));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of(Json::Value())));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of(true)));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of(Json::Value(Json::arrayValue))));
    }

    void id_list_rejects_fractional_floats() {
        const std::string rejected = std::string("rejected: ") + k_bad_ids_text;
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of(1.5)));
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of(0.5)));
    }

    // A body's 2.0 is a JSON float whatever its value; the JWT decoder refuses 1.0 as an identity.
    void id_list_rejects_integral_valued_floats() {
        const std::string rejected = std::string("rejected: ") + k_bad_ids_text;
        CPPUNIT_ASSERT_EQUAL(rejected, ids_of(array_of(2.0)));
    }

    void datetime_accepts_february_29_of_leap_years() {
        CPPUNIT_ASSERT(cms::validate::datetime("2024-02-29 00:00:00"));
        CPPUNIT_ASSERT(cms::validate::datetime("2000-02-29 00:00:00"));
    }

    void datetime_refuses_february_29_of_other_years() {
        CPPUNIT_ASSERT(!cms::validate::datetime("2023-02-29 00:00:00"));
        CPPUNIT_ASSERT(!cms::validate::datetime("1900-02-29 00:00:00"));
        CPPUNIT_ASSERT(!cms::validate::datetime("2024-02-30 00:00:00"));
    }

    void datetime_refuses_month_00_and_13() {
        CPPUNIT_ASSERT(cms::validate::datetime("2024-01-01 00:00:00"));
        CPPUNIT_ASSERT(cms::validate::datetime("2024-12-31 00:00:00"));
        CPPUNIT_ASSERT(!cms::validate::datetime("2024-00-01 00:00:00"));
        CPPUNIT_ASSERT(!cms::validate::datetime("2024-13-01 00:00:00"));
    }

    void datetime_refuses_day_00_32_and_april_31() {
        CPPUNIT_ASSERT(cms::validate::datetime("2024-04-30 00:00:00"));
        CPPUNIT_ASSERT(!cms::validate::datetime("2024-01-00 00:00:00"));
        CPPUNIT_ASSERT(!cms::validate::datetime("2024-01-32 00:00:00"));
        CPPUNIT_ASSERT(!cms::validate::datetime("2024-04-31 00:00:00"));
    }

    void datetime_accepts_the_last_second_of_a_day() {
        CPPUNIT_ASSERT(cms::validate::datetime("2024-01-01 23:59:59"));
    }

    void datetime_refuses_hour_24_minute_60_second_60() {
        CPPUNIT_ASSERT(!cms::validate::datetime("2024-01-01 24:00:00"));
        CPPUNIT_ASSERT(!cms::validate::datetime("2024-01-01 12:60:00"));
        CPPUNIT_ASSERT(!cms::validate::datetime("2024-01-01 12:00:60"));
    }

    void datetime_refuses_other_shapes() {
        for (const char *text :
             {"2024-1-01 00:00:00", "2024-01-1 00:00:00", "2024-01-01T00:00:00",
              "2024-01-01 00:00:00 ", " 2024-01-01 00:00:00", "2024-01-01 00:00", "2024-01-01",
              "2024/01/01 00:00:00", "2024-01-01 00-00-00", "abcd-ef-gh ij:kl:mn",
              "2024-0a-01 00:00:00", "+024-01-01 00:00:00", "2024-01-01 0:00:00", ""})
            CPPUNIT_ASSERT_MESSAGE(text, !cms::validate::datetime(text));
    }

    void page_query_defaults_to_page_0_count_10() {
        cms::Request req;
        cms::validate::Page page = cms::validate::page_query(req);
        CPPUNIT_ASSERT_EQUAL(int64_t(0), page.page);
        CPPUNIT_ASSERT_EQUAL(int64_t(10), page.count);
    }

    void page_query_accepts_page_0_and_count_30() {
        cms::Request req;
        req.raw_query = "page=0&count=30";
        cms::validate::Page page = cms::validate::page_query(req);
        CPPUNIT_ASSERT_EQUAL(int64_t(0), page.page);
        CPPUNIT_ASSERT_EQUAL(int64_t(30), page.count);
        cms::Request other;
        other.raw_query = "page=3&count=1";
        page = cms::validate::page_query(other);
        CPPUNIT_ASSERT_EQUAL(int64_t(3), page.page);
        CPPUNIT_ASSERT_EQUAL(int64_t(1), page.count);
    }

    void page_query_count_over_30_gives_the_max_text() {
        CPPUNIT_ASSERT_EQUAL(one_field("count", "分页数量必须小于30"),
                             page_query_fields("count=31"));
    }

    // Any count above 30 is "above 30", however many digits it has (Lin CMS's @Max(30)).
    void page_query_count_far_over_30_gives_the_max_text() {
        CPPUNIT_ASSERT_EQUAL(one_field("count", "分页数量必须小于30"),
                             page_query_fields("count=1000001"));
        CPPUNIT_ASSERT_EQUAL(one_field("count", "分页数量必须小于30"),
                             page_query_fields("count=99999999999999999999999999"));
    }

    void page_query_reads_leading_zeros() {
        cms::Request req;
        req.raw_query = "page=00&count=05";
        cms::validate::Page page = cms::validate::page_query(req);
        CPPUNIT_ASSERT_EQUAL(int64_t(0), page.page);
        CPPUNIT_ASSERT_EQUAL(int64_t(5), page.count);
    }

    void page_query_count_0_or_not_a_number_gives_the_positive_text() {
        for (const char *query : {"count=0", "count=abc", "count=-1"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(query, one_field("count", "分页数量必须为正整数"),
                                         page_query_fields(query));
    }

    void page_query_negative_page_gives_the_page_text() {
        for (const char *query : {"page=-1", "page=-2"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(query, one_field("page", "分页页码必须为正整数"),
                                         page_query_fields(query));
    }

    void page_query_reports_count_and_page_together() {
        Json::Value expected(Json::objectValue);
        expected["count"] = "分页数量必须小于30";
        expected["page"] = "分页页码必须为正整数";
        CPPUNIT_ASSERT_EQUAL(expected, page_query_fields("count=31&page=-1"));
    }

    // The fields of the 400/10030 that page_query throws for query; fails the test when it accepts.
    static Json::Value page_query_fields(const char *query) {
        cms::Request req;
        req.raw_query = query;
        try {
            cms::validate::page_query(req);
        } catch (const ApiError &e) {
            CPPUNIT_ASSERT_EQUAL_MESSAGE(query, 400, e.status);
            CPPUNIT_ASSERT_EQUAL_MESSAGE(query, num(Code::parameter), num(e.code));
            return shipped_field_texts(e);
        }
        CPPUNIT_FAIL(std::string("page_query accepted '") + query + "'");
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ValidateTest);
