// Unit tests for src/http/response.cpp: the exact CGI bytes (Status line, headers in order,
// Content-Length in bytes, blank line, body) that go to the web server.
#include "http/response.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::Response;
using cms::status_text;

class ResponseTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(ResponseTest);
    CPPUNIT_TEST(json_404_serializes_to_exact_bytes);
    CPPUNIT_TEST(empty_204_has_zero_content_length);
    CPPUNIT_TEST(status_texts_of_the_codes_sent);
    CPPUNIT_TEST_SUITE_END();

  public:
    void json_404_serializes_to_exact_bytes() {
        Json::Value envelope(Json::objectValue);
        envelope["code"] = 10022;
        envelope["message"] = "未找到相关书籍";
        envelope["request"] = "GET /v1/book/7";
        Response res = Response::json(404, envelope);
        res.header("Vary", "Origin");
        // 75 bytes: the seven CJK characters are three bytes each.
        const std::string expected =
            "Status: 404 Not Found\r\n"
            "Content-Type: application/json; charset=utf-8\r\n"
            "Vary: Origin\r\n"
            "Content-Length: 75\r\n"
            "\r\n"
            R"({"code":10022,"message":"未找到相关书籍","request":"GET /v1/book/7"})";
        CPPUNIT_ASSERT_EQUAL(expected, res.serialize());
    }

    void empty_204_has_zero_content_length() {
        Response res = Response::empty(204);
        res.header("Access-Control-Allow-Methods", "GET, OPTIONS");
        CPPUNIT_ASSERT_EQUAL(std::string("Status: 204 No Content\r\n"
                                         "Access-Control-Allow-Methods: GET, OPTIONS\r\n"
                                         "Content-Length: 0\r\n"
                                         "\r\n"),
                             res.serialize());
    }

    void status_texts_of_the_codes_sent() {
        CPPUNIT_ASSERT_EQUAL(std::string("OK"), std::string(status_text(200)));
        CPPUNIT_ASSERT_EQUAL(std::string("Created"), std::string(status_text(201)));
        CPPUNIT_ASSERT_EQUAL(std::string("Method Not Allowed"), std::string(status_text(405)));
        CPPUNIT_ASSERT_EQUAL(std::string("Payload Too Large"), std::string(status_text(413)));
        CPPUNIT_ASSERT_EQUAL(std::string("Service Unavailable"), std::string(status_text(503)));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ResponseTest);
