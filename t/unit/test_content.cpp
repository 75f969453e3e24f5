// Unit tests for src/content/: field values on the wire (decimals digit for digit, datetimes to
// UTC), the declaration's rules and their JSON pointers, the plan of a change (rename, retire,
// re-add, tightening, type change) and the list query's parameters.
#include "content/declaration.h"
#include "content/plan.h"
#include "content/query.h"
#include "content/value.h"

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using namespace cms::content;

namespace {

// The declaration of text, which must break no rule (allow_retired as an applied one).
Declaration declared(const std::string &text, bool applied = false) {
    std::vector<Problem> problems;
    std::optional<Json::Value> doc = parse(text, problems);
    CPPUNIT_ASSERT_MESSAGE(describe(problems), doc.has_value());
    Declaration out = read(*doc, Limits{}, applied, problems);
    CPPUNIT_ASSERT_MESSAGE(describe(problems), problems.empty());
    return out;
}

// The pointers of the rules text breaks.
std::vector<std::string> pointers(const std::string &text) {
    std::vector<Problem> problems;
    if (std::optional<Json::Value> doc = parse(text, problems))
        read(*doc, Limits{}, false, problems);
    std::vector<std::string> out;
    for (const Problem &p : problems)
        out.push_back(p.pointer);
    return out;
}

// text, or "(none)": an optional that CppUnit can print.
std::string shown(const std::optional<std::string> &text) {
    return text.value_or("(none)");
}

bool has(const std::vector<std::string> &list, const std::string &item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

// One collection "c" (label C) with the fields of the JSON array fields.
std::string one(const std::string &fields, const std::string &access = "") {
    return R"({"collections": [{"id": "c", "name": "c", "label": "C", "fields": )" + fields +
           (access.empty() ? "" : ", \"access\": " + access) + "}]}";
}

// The stored value of the JSON text member for field of type (its other options in options).
std::pair<Fault, Value> stored(const std::string &field, const std::string &member) {
    Declaration d = declared(one("[" + field + "]"));
    std::vector<Problem> problems;
    std::optional<Json::Value> m = parse("[" + member + "]", problems);
    CPPUNIT_ASSERT(m.has_value());
    std::string source = "[" + member + "]";
    Value v;
    Fault f = convert(d.collections[0].fields[0], (*m)[0], source, v);
    return {f, v};
}

std::vector<QueryProblem> query_problems(const std::string &name, const std::string &value) {
    Declaration d = declared(one(R"([{"id": "n", "name": "n", "type": "integer", "filter": true,
        "sort": true}, {"id": "t", "name": "t", "type": "text", "search": true}])"));
    std::vector<QueryProblem> problems;
    read_query(d.collections[0], {{name, value}}, QueryLimits{}, problems);
    return problems;
}

} // namespace

class ContentTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(ContentTest);
    CPPUNIT_TEST(decimal_is_read_digit_for_digit_and_answered_with_its_scale);
    CPPUNIT_TEST(decimal_digits_beyond_the_scale_are_refused_not_rounded);
    CPPUNIT_TEST(decimal_as_a_string_and_with_an_exponent);
    CPPUNIT_TEST(decimals_compare_by_value);
    CPPUNIT_TEST(integer_beyond_64_bits_is_a_range_fault);
    CPPUNIT_TEST(datetime_with_an_offset_is_stored_in_utc);
    CPPUNIT_TEST(datetime_across_a_day_and_with_milliseconds);
    CPPUNIT_TEST(datetime_refusals);
    CPPUNIT_TEST(dates_are_real_calendar_dates);
    CPPUNIT_TEST(lengths_are_characters_not_bytes);
    CPPUNIT_TEST(enum_email_url_boolean_relation);
    CPPUNIT_TEST(answers_are_the_wire_forms);
    CPPUNIT_TEST(rules_are_reported_at_their_pointers);
    CPPUNIT_TEST(identifiers_refuse_reserved_words_and_our_prefixes);
    CPPUNIT_TEST(indexed_strings_fit_an_index_key);
    CPPUNIT_TEST(duplicate_ids_names_and_permissions);
    CPPUNIT_TEST(the_fixed_routes_names_and_modules_are_refused);
    CPPUNIT_TEST(retired_is_never_declared_in_a_file);
    CPPUNIT_TEST(a_new_collection_is_one_create_table);
    CPPUNIT_TEST(a_rename_is_a_note_with_no_step);
    CPPUNIT_TEST(a_removed_field_is_retired_and_comes_back);
    CPPUNIT_TEST(tightening_is_checked_first);
    CPPUNIT_TEST(a_re_added_required_field_checks_the_rows_of_its_absence);
    CPPUNIT_TEST(a_default_is_written_as_it_is_stored);
    CPPUNIT_TEST(a_type_change_is_refused);
    CPPUNIT_TEST(query_reads_filters_sort_and_q);
    CPPUNIT_TEST(query_refusals_name_their_parameter);
    CPPUNIT_TEST_SUITE_END();

  public:
    void decimal_is_read_digit_for_digit_and_answered_with_its_scale() {
        auto [fault, v] = stored(R"({"id": "p", "name": "p", "type": "decimal", "precision": 10,
            "scale": 2})",
                                 "12.5");
        CPPUNIT_ASSERT(fault == Fault::none);
        CPPUNIT_ASSERT_EQUAL(std::string("12.50"), v.text);
        // 0.1 + 0.2 in a double is 0.30000000000000004: the text is what was sent.
        CPPUNIT_ASSERT_EQUAL(
            std::string("0.30"),
            stored(R"({"id": "p", "name": "p", "type": "decimal", "scale": 2})", "0.30")
                .second.text);
    }

    void decimal_digits_beyond_the_scale_are_refused_not_rounded() {
        std::string field = R"({"id": "p", "name": "p", "type": "decimal", "precision": 5,
            "scale": 2})";
        CPPUNIT_ASSERT(stored(field, "0.125").first == Fault::range);
        CPPUNIT_ASSERT(stored(field, "1000").first == Fault::range);
        CPPUNIT_ASSERT(stored(field, "999.99").first == Fault::none);
        CPPUNIT_ASSERT(stored(field, "0.120").first ==
                       Fault::none); // a trailing zero drops nothing
        CPPUNIT_ASSERT(stored(field, "\"1.2.3\"").first == Fault::invalid);
        CPPUNIT_ASSERT(stored(field, "true").first == Fault::invalid);
    }

    void decimal_as_a_string_and_with_an_exponent() {
        std::string field = R"({"id": "p", "name": "p", "type": "decimal", "precision": 10,
            "scale": 3})";
        CPPUNIT_ASSERT_EQUAL(std::string("-0.500"), stored(field, "\"-0.5\"").second.text);
        CPPUNIT_ASSERT_EQUAL(std::string("1250.000"), stored(field, "1.25e3").second.text);
        CPPUNIT_ASSERT_EQUAL(std::string("0.000"), stored(field, "-0").second.text);
        CPPUNIT_ASSERT_EQUAL(std::string("12"), shown(decimal("12.0", 2, 0)));
        CPPUNIT_ASSERT(!decimal("1e400", 65, 0));
    }

    void decimals_compare_by_value() {
        CPPUNIT_ASSERT_EQUAL(-1, compare_decimal("-2.50", "1.00"));
        CPPUNIT_ASSERT_EQUAL(1, compare_decimal("-1.00", "-2.50"));
        CPPUNIT_ASSERT_EQUAL(0, compare_decimal("10.50", "10.5"));
        CPPUNIT_ASSERT_EQUAL(1, compare_decimal("100", "99.99"));
    }

    void integer_beyond_64_bits_is_a_range_fault() {
        std::string field = R"({"id": "n", "name": "n", "type": "integer", "min": -5})";
        CPPUNIT_ASSERT(stored(field, "9223372036854775807").first == Fault::none);
        CPPUNIT_ASSERT(stored(field, "9223372036854775808").first == Fault::range);
        CPPUNIT_ASSERT(stored(field, "-6").first == Fault::range);
        CPPUNIT_ASSERT(stored(field, "1.5").first == Fault::invalid);
        CPPUNIT_ASSERT(stored(field, "\"3\"").first == Fault::invalid);
    }

    void datetime_with_an_offset_is_stored_in_utc() {
        CPPUNIT_ASSERT_EQUAL(std::string("2024-01-02 00:04:05.000"),
                             shown(utc_datetime("2024-01-02T08:04:05+08:00")));
        CPPUNIT_ASSERT_EQUAL(std::string("2024-01-02 13:34:05.000"),
                             shown(utc_datetime("2024-01-02T08:04:05-05:30")));
    }

    void datetime_across_a_day_and_with_milliseconds() {
        CPPUNIT_ASSERT_EQUAL(std::string("2023-12-31 23:30:00.100"),
                             shown(utc_datetime("2024-01-01T01:30:00.1+02:00")));
        CPPUNIT_ASSERT_EQUAL(std::string("2024-03-01 00:00:00.999"),
                             shown(utc_datetime("2024-02-29t23:00:00.999-01:00")));
    }

    void datetime_refusals() {
        for (const char *bad :
             {"2024-01-02", "2024-01-02T03:04:05", "2024-01-02T24:00:00Z",
              "2024-01-02T03:04:05.1234Z", "2024-01-02T03:04:60Z", "2024-01-02T03:04:05+0800",
              "0999-12-31T23:00:00Z", "9999-12-31T23:00:00-02:00"})
            CPPUNIT_ASSERT_MESSAGE(bad, !utc_datetime(bad));
    }

    void dates_are_real_calendar_dates() {
        CPPUNIT_ASSERT(date("2024-02-29"));
        CPPUNIT_ASSERT(!date("2023-02-29"));
        CPPUNIT_ASSERT(!date("2100-02-29"));
        CPPUNIT_ASSERT(date("2000-02-29"));
        CPPUNIT_ASSERT(!date("2024-04-31"));
        CPPUNIT_ASSERT(!date("2024-4-01"));
        CPPUNIT_ASSERT(!date("0999-01-01"));
    }

    void lengths_are_characters_not_bytes() {
        std::string field = R"({"id": "s", "name": "s", "type": "string", "min": 2, "max": 3})";
        CPPUNIT_ASSERT(stored(field, "\"三体😀\"").first == Fault::none); // 3 characters, 10 bytes
        CPPUNIT_ASSERT(stored(field, "\"三体😀x\"").first == Fault::length);
        CPPUNIT_ASSERT(stored(field, "\"三\"").first == Fault::length);
        CPPUNIT_ASSERT(stored(field, "3").first == Fault::invalid);
    }

    void enum_email_url_boolean_relation() {
        std::string e = R"({"id": "e", "name": "e", "type": "enum", "values": ["a", "b"]})";
        CPPUNIT_ASSERT(stored(e, "\"b\"").first == Fault::none);
        CPPUNIT_ASSERT(stored(e, "\"c\"").first == Fault::invalid);
        CPPUNIT_ASSERT(email("a@b.cn"));
        CPPUNIT_ASSERT(!email("a@b"));
        CPPUNIT_ASSERT(!email("a b@c.d"));
        CPPUNIT_ASSERT(url("https://example.com/x?y"));
        CPPUNIT_ASSERT(!url("javascript:alert(1)"));
        CPPUNIT_ASSERT(!url("http:///x"));
        std::string b = R"({"id": "b", "name": "b", "type": "boolean"})";
        CPPUNIT_ASSERT(stored(b, "false").second.integer == 0);
        CPPUNIT_ASSERT(stored(b, "1").first == Fault::invalid);
        std::string r = R"({"id": "r", "name": "r", "type": "relation", "target": "user"})";
        CPPUNIT_ASSERT(stored(r, "\"12\"").second.integer == 12);
        CPPUNIT_ASSERT(stored(r, "0").first == Fault::invalid);
        CPPUNIT_ASSERT(stored(r, "4294967296").first == Fault::invalid);
    }

    void answers_are_the_wire_forms() {
        Field f;
        f.type = Type::datetime;
        CPPUNIT_ASSERT_EQUAL(std::string("2024-01-02T03:04:05Z"),
                             answer(f, false, 0, "2024-01-02 03:04:05.000").asString());
        CPPUNIT_ASSERT_EQUAL(std::string("2024-01-02T03:04:05.120Z"),
                             answer(f, false, 0, "2024-01-02 03:04:05.120").asString());
        f.type = Type::boolean;
        CPPUNIT_ASSERT(answer(f, false, 1, "1").asBool());
        f.type = Type::decimal;
        CPPUNIT_ASSERT_EQUAL(std::string("12.50"), answer(f, false, 12, "12.50").asString());
        CPPUNIT_ASSERT(answer(f, true, 0, "").isNull());
    }

    void rules_are_reported_at_their_pointers() {
        std::vector<std::string> p =
            pointers(one(R"([{"id": "a", "name": "a", "type": "geo"},
            {"id": "b", "name": "b", "type": "string", "max": 0, "precision": 3},
            {"id": "c", "name": "c", "type": "integer", "min": 5, "max": 1},
            {"id": "d", "name": "d", "type": "text", "unique": true},
            {"id": "e", "name": "e", "type": "enum", "values": ["x", "x"]},
            {"id": "f", "name": "f", "type": "string", "nullable": false},
            {"id": "g", "name": "g", "type": "integer", "default": "7"}])",
                         R"({"create": {"level": "login", "own": true}})"));
        for (const char *expected :
             {"/collections/0/fields/0/type", "/collections/0/fields/1/max",
              "/collections/0/fields/1/precision", "/collections/0/fields/2/min",
              "/collections/0/fields/3/unique", "/collections/0/fields/4/values/1",
              "/collections/0/fields/5/nullable", "/collections/0/fields/6/default",
              "/collections/0/access/create/own"})
            CPPUNIT_ASSERT_MESSAGE(expected, has(p, expected));
        CPPUNIT_ASSERT(has(pointers("{\"collections\": [], \"extra\": 1}"), "/extra"));
        CPPUNIT_ASSERT(has(pointers("{\"collections\": [], \"collections\": []}"), ""));
    }

    void identifiers_refuse_reserved_words_and_our_prefixes() {
        CPPUNIT_ASSERT(identifier("article"));
        CPPUNIT_ASSERT(identifier("a_1"));
        for (const char *bad : {"select", "order", "lin_user", "cms_x", "content_x", "1a", "A",
                                "a-b", "", "a234567890123456789012345678901234567890123456789"})
            CPPUNIT_ASSERT_MESSAGE(bad, !identifier(bad));
        CPPUNIT_ASSERT(has(pointers(one(R"([{"id": "id", "name": "x", "type": "text"}])")),
                           "/collections/0/fields/0/id"));
    }

    void indexed_strings_fit_an_index_key() {
        CPPUNIT_ASSERT(pointers(one(R"([{"id": "s", "name": "s", "type": "string", "max": 767,
            "unique": true}])"))
                           .empty());
        CPPUNIT_ASSERT(has(pointers(one(R"([{"id": "s", "name": "s", "type": "string",
            "max": 768, "filter": true}])")),
                           "/collections/0/fields/0/max"));
        CPPUNIT_ASSERT(has(pointers(one(R"([{"id": "s", "name": "s", "type": "string",
            "hidden": true, "search": true}])")),
                           "/collections/0/fields/0/search"));
    }

    void duplicate_ids_names_and_permissions() {
        std::vector<std::string> p = pointers(R"({"collections": [
            {"id": "a", "name": "a", "label": "L", "fields": [
             {"id": "x", "name": "x", "type": "text"},
             {"id": "x", "name": "y", "type": "text"}], "access": {"delete": {"permission": "P"}}},
            {"id": "a", "name": "a", "label": "L", "fields": [
             {"id": "x", "name": "x", "type": "text"}],
             "access": {"delete": {"permission": "P"}}},
            {"id": "b", "name": "b", "label": "M", "fields": [{"id": "r", "name": "r",
             "type": "relation", "target": "nope"}]}]})");
        for (const char *expected :
             {"/collections/0/fields/1/id", "/collections/1/id", "/collections/1/name",
              "/collections/1/access/delete/permission", "/collections/2/fields/0/target"})
            CPPUNIT_ASSERT_MESSAGE(expected, has(p, expected));
    }

    void the_fixed_routes_names_and_modules_are_refused() {
        Limits fixed;
        fixed.fixed_names = {"book"};
        fixed.fixed_modules = {"图书"};
        std::vector<Problem> problems;
        std::optional<Json::Value> doc =
            parse(R"({"collections": [{"id": "b", "name": "book", "label": "图书",
                "fields": [{"id": "t", "name": "t", "type": "text"}]}]})",
                  problems);
        read(*doc, fixed, false, problems);
        std::vector<std::string> p;
        for (const Problem &problem : problems)
            p.push_back(problem.pointer);
        CPPUNIT_ASSERT(has(p, "/collections/0/name"));
        CPPUNIT_ASSERT(has(p, "/collections/0/label"));
    }

    void retired_is_never_declared_in_a_file() {
        std::string text = one(R"([{"id": "x", "name": "x", "type": "text", "retired": true}])");
        CPPUNIT_ASSERT(has(pointers(text), "/collections/0/fields/0/retired"));
        CPPUNIT_ASSERT(declared(text, true).collections[0].fields[0].retired);
    }

    void a_new_collection_is_one_create_table() {
        Plan p = plan(Declaration{}, declared(one(R"([{"id": "t", "name": "title",
            "type": "string", "max": 40, "unique": true}, {"id": "v", "name": "v",
            "type": "integer", "filter": true}])")));
        CPPUNIT_ASSERT_EQUAL(size_t(1), p.steps.size());
        const std::string &sql = p.steps[0].sql;
        CPPUNIT_ASSERT(sql.find("CREATE TABLE IF NOT EXISTS `content_c`") == 0);
        CPPUNIT_ASSERT(sql.find("`t` varchar(40) DEFAULT NULL") != std::string::npos);
        CPPUNIT_ASSERT(sql.find("UNIQUE KEY `u_t` (`t`, live)") != std::string::npos);
        CPPUNIT_ASSERT(sql.find("KEY `k_v` (`v`)") != std::string::npos);
        CPPUNIT_ASSERT(sql.find("utf8mb4") != std::string::npos);
    }

    void a_rename_is_a_note_with_no_step() {
        Declaration before = declared(one(R"([{"id": "t", "name": "title", "type": "string"}])"));
        Declaration after = declared(R"({"collections": [{"id": "c", "name": "posts",
            "label": "C", "fields": [{"id": "t", "name": "headline", "type": "string"}]}]})");
        Plan p = plan(before, after);
        CPPUNIT_ASSERT(p.steps.empty() && p.checks.empty() && p.refusals.empty());
        CPPUNIT_ASSERT_EQUAL(size_t(2), p.notes.size());
        CPPUNIT_ASSERT_EQUAL(std::string("posts"), p.merged.collections[0].name);
    }

    void a_removed_field_is_retired_and_comes_back() {
        Declaration two = declared(one(R"([{"id": "a", "name": "a", "type": "text"},
            {"id": "b", "name": "b", "type": "text"}])"));
        Plan drop = plan(two, declared(one(R"([{"id": "a", "name": "a", "type": "text"}])")));
        CPPUNIT_ASSERT(drop.steps.empty());
        CPPUNIT_ASSERT_EQUAL(size_t(2), drop.merged.collections[0].fields.size());
        CPPUNIT_ASSERT(drop.merged.collections[0].fields[1].retired);
        CPPUNIT_ASSERT(drop.merged.collections[0].field("b") == nullptr);
        Plan back = plan(drop.merged, two);
        CPPUNIT_ASSERT(back.steps.empty());
        CPPUNIT_ASSERT(!back.merged.collections[0].fields[1].retired);
        Plan gone = plan(two, Declaration{});
        CPPUNIT_ASSERT(gone.steps.empty());
        CPPUNIT_ASSERT(gone.merged.collections[0].retired);
    }

    void tightening_is_checked_first() {
        Declaration loose = declared(one(R"([{"id": "s", "name": "s", "type": "string",
            "max": 80}, {"id": "e", "name": "e", "type": "enum", "values": ["a", "b"]}])"));
        Declaration tight = declared(one(R"([{"id": "s", "name": "s", "type": "string",
            "max": 40, "required": true, "unique": true}, {"id": "e", "name": "e",
            "type": "enum", "values": ["a"]}])"));
        Plan p = plan(loose, tight);
        CPPUNIT_ASSERT(p.refusals.empty());
        CPPUNIT_ASSERT_EQUAL(size_t(4), p.checks.size()); // max, required, unique, enum
        CPPUNIT_ASSERT(p.checks[0].condition.find("CHAR_LENGTH(`s`) > 40") == 0);
        // A smaller max is the engine's to enforce: the column is never narrowed.
        for (const Step &s : p.steps)
            CPPUNIT_ASSERT(s.sql.find("MODIFY") == std::string::npos);
        Plan wider = plan(tight, loose);
        CPPUNIT_ASSERT(wider.checks.empty()); // loosening checks nothing
        bool widened = false;
        for (const Step &s : wider.steps)
            widened = widened || (s.sql.find("MODIFY COLUMN `s` varchar(80)") != std::string::npos &&
                                  s.table == "content_c" && s.column == "s" && s.chars == 80);
        CPPUNIT_ASSERT(widened);
    }

    void a_re_added_required_field_checks_the_rows_of_its_absence() {
        Declaration required = declared(one(R"([{"id": "a", "name": "a", "type": "text",
            "required": true}, {"id": "b", "name": "b", "type": "text"}])"));
        Plan retire = plan(required, declared(one(R"([{"id": "b", "name": "b", "type": "text"}])")));
        Plan back = plan(retire.merged, required);
        CPPUNIT_ASSERT_EQUAL(size_t(1), back.checks.size());
        CPPUNIT_ASSERT_EQUAL(std::string("`a` IS NULL"), back.checks[0].condition);
    }

    void a_default_is_written_as_it_is_stored() {
        Declaration d = declared(one(R"([{"id": "t", "name": "t", "type": "text"}])"));
        Plan p = plan(d, declared(one(R"([{"id": "t", "name": "t", "type": "text"},
            {"id": "at", "name": "at", "type": "datetime", "nullable": false,
             "default": "2024-01-02T08:04:05+08:00"},
            {"id": "p", "name": "p", "type": "decimal", "scale": 2, "nullable": false,
             "default": 0.1}])")));
        std::string all;
        for (const Step &s : p.steps)
            all += s.sql + "\n";
        CPPUNIT_ASSERT(all.find("DEFAULT '2024-01-02 00:04:05.000'") != std::string::npos);
        CPPUNIT_ASSERT(all.find("DEFAULT '0.10'") != std::string::npos);
    }

    void a_type_change_is_refused() {
        Plan p = plan(declared(one(R"([{"id": "s", "name": "s", "type": "string"}])")),
                      declared(one(R"([{"id": "s", "name": "s", "type": "integer"}])")));
        CPPUNIT_ASSERT_EQUAL(size_t(1), p.refusals.size());
        CPPUNIT_ASSERT(p.refusals[0].rule.find("new id") != std::string::npos);
    }

    void query_reads_filters_sort_and_q() {
        Declaration d = declared(one(R"([{"id": "n", "name": "n", "type": "integer",
            "filter": true, "sort": true}, {"id": "t", "name": "t", "type": "text",
            "search": true}])"));
        std::vector<QueryProblem> problems;
        Query q = read_query(d.collections[0],
                             {{"page", "2"},
                              {"filter[n][in]", "1,2,3"},
                              {"filter[n]", "-4"},
                              {"sort", "-n,id"},
                              {"q", "50%"}},
                             QueryLimits{}, problems);
        CPPUNIT_ASSERT(problems.empty());
        CPPUNIT_ASSERT_EQUAL(size_t(2), q.conditions.size());
        CPPUNIT_ASSERT(q.conditions[0].op == Op::in);
        CPPUNIT_ASSERT_EQUAL(size_t(3), q.conditions[0].values.size());
        CPPUNIT_ASSERT_EQUAL(int64_t(-4), q.conditions[1].values[0].integer);
        CPPUNIT_ASSERT(q.sort[0].descending && q.sort[1].field == nullptr);
        CPPUNIT_ASSERT_EQUAL(std::string("50%"), q.q);
    }

    void query_refusals_name_their_parameter() {
        CPPUNIT_ASSERT(query_problems("nope", "1")[0].fault == QueryFault::unknown);
        CPPUNIT_ASSERT(query_problems("filter[t]", "x")[0].fault == QueryFault::not_allowed);
        CPPUNIT_ASSERT(query_problems("filter[n][gt]", "x")[0].fault == QueryFault::value);
        CPPUNIT_ASSERT(query_problems("filter[n][like]", "1")[0].fault == QueryFault::unknown);
        CPPUNIT_ASSERT(query_problems("sort", "t")[0].fault == QueryFault::not_allowed);
        CPPUNIT_ASSERT(query_problems("sort", "n,n,n,n")[0].fault == QueryFault::too_many);
        CPPUNIT_ASSERT_EQUAL(std::string("filter[n][gt]"),
                             query_problems("filter[n][gt]", "x")[0].parameter);
        CPPUNIT_ASSERT(query_problems("q", "x").empty());
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ContentTest);
