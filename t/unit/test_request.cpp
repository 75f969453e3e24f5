// Unit tests for src/http/request.cpp: the path and request line from fake CGI parameters, the body
// with its CONTENT_LENGTH edge cases and cap, and decoded query values.
#include "base/errors.h"
#include "http/request.h"

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using cms::ApiError;
using cms::Code;
using cms::normalize_path;
using cms::ParamLookup;
using cms::read_request_body;
using cms::read_request_head;
using cms::Request;

namespace {

using Params = std::map<std::string, std::string>;

// The parameters as a ParamLookup; params must outlive it.
ParamLookup lookup_in(const Params &params) {
    return [&params](const char *name) -> const char * {
        auto it = params.find(name);
        return it == params.end() ? nullptr : it->second.c_str();
    };
}

std::string path_of(const Params &params) {
    return read_request_head(lookup_in(params)).path;
}

// Serves a body in reads of at most chunk bytes and records how many bytes each call asked for.
struct ChunkReader {
    ChunkReader(std::string body, size_t chunk_bytes) : data(std::move(body)), chunk(chunk_bytes) {}

    std::string data;
    size_t chunk;
    size_t offset = 0;
    std::vector<size_t> asked;

    size_t operator()(char *buf, size_t n) {
        asked.push_back(n);
        size_t count = std::min({n, chunk, data.size() - offset});
        std::memcpy(buf, data.data() + offset, count);
        offset += count;
        return count;
    }
};

// Runs read_request_body and returns the ApiError it throws; fails the test when none is thrown.
ApiError body_error(const Params &params, ChunkReader &reader, size_t max_bytes) {
    Request req;
    try {
        read_request_body(req, lookup_in(params), std::ref(reader), max_bytes);
    } catch (const ApiError &e) {
        return e;
    }
    CPPUNIT_FAIL("read_request_body did not throw ApiError");
}

int num(Code code) {
    return static_cast<int>(code);
}

} // namespace

class RequestTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(RequestTest);
    CPPUNIT_TEST(path_info_wins_over_request_uri);
    CPPUNIT_TEST(request_uri_path_is_used_without_path_info);
    CPPUNIT_TEST(request_uri_path_drops_the_query);
    CPPUNIT_TEST(request_uri_path_is_percent_decoded);
    CPPUNIT_TEST(empty_path_info_falls_back_to_request_uri_below_script_name);
    CPPUNIT_TEST(trailing_slash_is_removed);
    CPPUNIT_TEST(empty_path_becomes_root);
    CPPUNIT_TEST(doubled_slashes_are_collapsed);
    CPPUNIT_TEST(normalize_path_adds_the_leading_slash);
    CPPUNIT_TEST(line_is_method_and_path_without_query);
    CPPUNIT_TEST(line_keeps_utf8_and_escapes_other_bytes);
    CPPUNIT_TEST(head_copies_query_and_headers);
    CPPUNIT_TEST(missing_content_length_means_empty_body_and_no_read);
    CPPUNIT_TEST(empty_content_length_means_empty_body_and_no_read);
    CPPUNIT_TEST(non_numeric_content_length_is_400);
    CPPUNIT_TEST(content_length_over_the_cap_is_413_before_any_read);
    CPPUNIT_TEST(content_length_equal_to_the_cap_is_read);
    CPPUNIT_TEST(body_is_read_exactly_across_short_reads);
    CPPUNIT_TEST(body_is_read_only_once);
    CPPUNIT_TEST(body_shorter_than_content_length_is_400);
    CPPUNIT_TEST(empty_body_with_a_content_length_is_400);
    CPPUNIT_TEST(query_values_are_decoded);
    CPPUNIT_TEST(absent_query_parameter_is_nullopt);
    CPPUNIT_TEST(first_query_value_wins);
    CPPUNIT_TEST(empty_query_value_is_present_and_empty);
    CPPUNIT_TEST_SUITE_END();

  public:
    void path_info_wins_over_request_uri() {
        Params p = {{"PATH_INFO", "/v1/book/3"}, {"REQUEST_URI", "/cms/v1/book/9?x=1"}};
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book/3"), path_of(p));
    }

    void request_uri_path_is_used_without_path_info() {
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book/9"), path_of({{"REQUEST_URI", "/v1/book/9"}}));
    }

    void request_uri_path_drops_the_query() {
        Params p = {{"REQUEST_URI", "/v1/book/search?q=/x/&count=5"}};
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book/search"), path_of(p));
    }

    void request_uri_path_is_percent_decoded() {
        Params p = {{"REQUEST_URI", "/v1/book/%E4%B8%89%20x?title=%E4%B8%89"}};
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book/三 x"), path_of(p));
    }

    void empty_path_info_falls_back_to_request_uri_below_script_name() {
        Params p = {{"PATH_INFO", ""}, {"SCRIPT_NAME", "/cms"}, {"REQUEST_URI", "/cms/v1/book"}};
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book"), path_of(p));
    }

    void trailing_slash_is_removed() {
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book"), path_of({{"REQUEST_URI", "/v1/book/"}}));
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book"), path_of({{"PATH_INFO", "/v1/book/"}}));
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book"), path_of({{"REQUEST_URI", "/v1/book///"}}));
    }

    void empty_path_becomes_root() {
        CPPUNIT_ASSERT_EQUAL(std::string("/"), path_of({{"REQUEST_URI", ""}}));
        CPPUNIT_ASSERT_EQUAL(std::string("/"), path_of({}));
        CPPUNIT_ASSERT_EQUAL(std::string("/"), path_of({{"REQUEST_URI", "/"}}));
        CPPUNIT_ASSERT_EQUAL(std::string("/"), path_of({{"REQUEST_URI", "?a=1"}}));
        CPPUNIT_ASSERT_EQUAL(std::string("/"), normalize_path(""));
    }

    void doubled_slashes_are_collapsed() {
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book/7"),
                             path_of({{"REQUEST_URI", "//v1//book///7"}}));
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book/7"), path_of({{"PATH_INFO", "/v1//book/7"}}));
        CPPUNIT_ASSERT_EQUAL(std::string("/"), normalize_path("///"));
    }

    void normalize_path_adds_the_leading_slash() {
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book"), normalize_path("v1/book"));
    }

    void line_is_method_and_path_without_query() {
        Params p = {{"REQUEST_METHOD", "GET"},
                    {"REQUEST_URI", "/v1/book/?count=5"},
                    {"QUERY_STRING", "count=5"}};
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book"), read_request_head(lookup_in(p)).line());
    }

    // The line goes into a JSON envelope: it must stay valid UTF-8 whatever the path held.
    void line_keeps_utf8_and_escapes_other_bytes() {
        Params utf8 = {{"REQUEST_METHOD", "GET"}, {"PATH_INFO", "/v1/book/三"}};
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book/三"), read_request_head(lookup_in(utf8)).line());
        Params raw = {{"REQUEST_METHOD", "GET"}, {"PATH_INFO", "/v1/book/\xff\xfe"}};
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book/%FF%FE"), read_request_head(lookup_in(raw)).line());
    }

    void head_copies_query_and_headers() {
        Params p = {{"REQUEST_METHOD", "POST"},
                    {"REQUEST_URI", "/v1/book?a=1"},
                    {"QUERY_STRING", "a=1"},
                    {"CONTENT_TYPE", "application/json"},
                    {"HTTP_AUTHORIZATION", "Bearer t"},
                    {"HTTP_ORIGIN", "https://a.example"},
                    {"REMOTE_ADDR", "127.0.0.1"}};
        Request req = read_request_head(lookup_in(p));
        CPPUNIT_ASSERT_EQUAL(std::string("POST"), req.method);
        CPPUNIT_ASSERT_EQUAL(std::string("a=1"), req.raw_query);
        CPPUNIT_ASSERT_EQUAL(std::string("application/json"), req.content_type);
        CPPUNIT_ASSERT_EQUAL(std::string("Bearer t"), req.authorization);
        CPPUNIT_ASSERT_EQUAL(std::string("https://a.example"), req.origin);
        CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1"), req.remote_addr);
        CPPUNIT_ASSERT_EQUAL(std::string(""), req.body);
    }

    void missing_content_length_means_empty_body_and_no_read() {
        Params p;
        ChunkReader reader("unexpected", 100);
        Request req;
        read_request_body(req, lookup_in(p), std::ref(reader), 1024);
        CPPUNIT_ASSERT_EQUAL(std::string(""), req.body);
        CPPUNIT_ASSERT_EQUAL(std::size_t(0), reader.asked.size());
    }

    void empty_content_length_means_empty_body_and_no_read() {
        Params p = {{"CONTENT_LENGTH", ""}};
        ChunkReader reader("unexpected", 100);
        Request req;
        read_request_body(req, lookup_in(p), std::ref(reader), 1024);
        CPPUNIT_ASSERT_EQUAL(std::string(""), req.body);
        CPPUNIT_ASSERT_EQUAL(std::size_t(0), reader.asked.size());
    }

    void non_numeric_content_length_is_400() {
        for (const char *length : {"abc", "-1", "1.5", " 5", "5 ", "0x10", "+5"}) {
            ChunkReader reader("hello", 100);
            ApiError e = body_error({{"CONTENT_LENGTH", length}}, reader, 1024);
            CPPUNIT_ASSERT_EQUAL_MESSAGE(length, 400, e.status);
            CPPUNIT_ASSERT_EQUAL_MESSAGE(length, num(Code::parameter), num(e.code));
            CPPUNIT_ASSERT_EQUAL_MESSAGE(length, std::size_t(0), reader.asked.size());
        }
    }

    void content_length_over_the_cap_is_413_before_any_read() {
        ChunkReader reader(std::string(1025, 'x'), 4096);
        ApiError e = body_error({{"CONTENT_LENGTH", "1025"}}, reader, 1024);
        CPPUNIT_ASSERT_EQUAL(413, e.status);
        CPPUNIT_ASSERT_EQUAL(num(Code::body_too_large), num(e.code));
        CPPUNIT_ASSERT_EQUAL(std::size_t(0), reader.asked.size());
    }

    void content_length_equal_to_the_cap_is_read() {
        Params p = {{"CONTENT_LENGTH", "1024"}};
        ChunkReader reader(std::string(1024, 'x'), 4096);
        Request req;
        read_request_body(req, lookup_in(p), std::ref(reader), 1024);
        CPPUNIT_ASSERT_EQUAL(std::string(1024, 'x'), req.body);
    }

    void body_is_read_exactly_across_short_reads() {
        Params p = {{"CONTENT_LENGTH", "11"}};
        ChunkReader reader("hello world and more", 3);
        Request req;
        read_request_body(req, lookup_in(p), std::ref(reader), 1024);
        CPPUNIT_ASSERT_EQUAL(std::string("hello world"), req.body);
        // Each call asks for what is still missing, and reading stops at CONTENT_LENGTH.
        CPPUNIT_ASSERT_EQUAL(std::size_t(4), reader.asked.size());
        CPPUNIT_ASSERT_EQUAL(std::size_t(11), reader.asked[0]);
        CPPUNIT_ASSERT_EQUAL(std::size_t(8), reader.asked[1]);
        CPPUNIT_ASSERT_EQUAL(std::size_t(5), reader.asked[2]);
        CPPUNIT_ASSERT_EQUAL(std::size_t(2), reader.asked[3]);
    }

    void body_is_read_only_once() {
        Params p = {{"CONTENT_LENGTH", "5"}};
        ChunkReader reader("helloworld", 100);
        Request req;
        read_request_body(req, lookup_in(p), std::ref(reader), 1024);
        read_request_body(req, lookup_in(p), std::ref(reader), 1024);
        CPPUNIT_ASSERT_EQUAL(std::string("hello"), req.body);
        CPPUNIT_ASSERT_EQUAL(std::size_t(1), reader.asked.size());
    }

    void body_shorter_than_content_length_is_400() {
        ChunkReader reader("hello", 3);
        ApiError e = body_error({{"CONTENT_LENGTH", "11"}}, reader, 1024);
        CPPUNIT_ASSERT_EQUAL(400, e.status);
        CPPUNIT_ASSERT_EQUAL(num(Code::parameter), num(e.code));
    }

    void empty_body_with_a_content_length_is_400() {
        ChunkReader reader("", 100);
        ApiError e = body_error({{"CONTENT_LENGTH", "1"}}, reader, 1024);
        CPPUNIT_ASSERT_EQUAL(400, e.status);
    }

    void query_values_are_decoded() {
        Request req;
        req.raw_query = "author=%E4%B8%89&title=a+b&q=%2B1%26x";
        CPPUNIT_ASSERT_EQUAL(std::string("三"), req.query("author").value_or("(absent)"));
        CPPUNIT_ASSERT_EQUAL(std::string("a b"), req.query("title").value_or("(absent)"));
        CPPUNIT_ASSERT_EQUAL(std::string("+1&x"), req.query("q").value_or("(absent)"));
    }

    void absent_query_parameter_is_nullopt() {
        Request req;
        req.raw_query = "count=5";
        CPPUNIT_ASSERT(!req.query("page").has_value());
        CPPUNIT_ASSERT(!req.query("Count").has_value());
        Request without_query;
        CPPUNIT_ASSERT(!without_query.query("count").has_value());
    }

    void first_query_value_wins() {
        Request req;
        req.raw_query = "page=1&count=5&page=2";
        CPPUNIT_ASSERT_EQUAL(std::string("1"), req.query("page").value_or("(absent)"));
    }

    void empty_query_value_is_present_and_empty() {
        Request req;
        req.raw_query = "page=&count=5";
        CPPUNIT_ASSERT_EQUAL(std::string(""), req.query("page").value_or("(absent)"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RequestTest);
