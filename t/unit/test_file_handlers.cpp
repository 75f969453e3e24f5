// Unit tests for src/file_handlers.cpp: read_uploads, the pure part of an upload (media type and
// boundary, multipart parts, count, extension and size checks). Storing is t/0400-file-upload.t's.
#include "config.h"
#include "errors.h"
#include "file_handlers.h"
#include "request.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>
#include <vector>

using cms::ApiError;
using cms::Code;
using cms::Config;
using cms::read_uploads;
using cms::Request;
using cms::Upload;

namespace {

const std::string k_type = "multipart/form-data; boundary=XyZ";

// One part of a body whose boundary is XyZ; no filename makes it a plain field.
std::string part(const std::string &field, const std::string *filename, const std::string &data) {
    std::string out = "--XyZ\r\nContent-Disposition: form-data; name=\"" + field + "\"";
    if (filename != nullptr)
        out += "; filename=\"" + *filename + "\"\r\nContent-Type: image/png";
    return out + "\r\n\r\n" + data + "\r\n";
}

std::string file_part(const std::string &field, const std::string &filename,
                      const std::string &data) {
    return part(field, &filename, data);
}

Request upload(const std::string &content_type, const std::string &body) {
    Request req;
    req.method = "POST";
    req.path = "/cms/file";
    req.content_type = content_type;
    req.body = body;
    return req;
}

Config limits() {
    Config config = cms::parse_config("", "test");
    config.file_max_count = 2;
    config.file_single_limit = 8;
    return config;
}

// "status/code" of the ApiError read_uploads raises, "none" when it returns.
std::string rejection(const std::string &content_type, const std::string &body) {
    try {
        read_uploads(upload(content_type, body), limits());
    } catch (const ApiError &e) {
        return std::to_string(e.status) + "/" + std::to_string(static_cast<int>(e.code));
    }
    return "none";
}

std::string status_code(int status, Code code) {
    return std::to_string(status) + "/" + std::to_string(static_cast<int>(code));
}

} // namespace

class FileHandlersTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(FileHandlersTest);
    CPPUNIT_TEST(file_parts_come_in_body_order_with_lower_case_extension);
    CPPUNIT_TEST(quoted_boundary_and_upper_case_type_are_read);
    CPPUNIT_TEST(other_media_type_is_415);
    CPPUNIT_TEST(missing_boundary_is_400);
    CPPUNIT_TEST(unterminated_part_headers_are_400);
    CPPUNIT_TEST(only_fields_or_empty_files_is_404);
    CPPUNIT_TEST(more_files_than_file_max_count_is_413);
    CPPUNIT_TEST(file_over_file_single_limit_is_413);
    CPPUNIT_TEST(extension_outside_the_list_or_missing_is_406);
    CPPUNIT_TEST_SUITE_END();

  public:
    void file_parts_come_in_body_order_with_lower_case_extension() {
        std::vector<Upload> got = read_uploads(
            upload(k_type, part("name", nullptr, "v") + file_part("b", "one.PNG", "12345678") +
                               file_part("a", "../two.jpg", "x") + "--XyZ--\r\n"),
            limits());
        CPPUNIT_ASSERT_EQUAL(size_t(2), got.size());
        CPPUNIT_ASSERT_EQUAL(std::string("b"), got[0].key);
        CPPUNIT_ASSERT_EQUAL(std::string("12345678"), got[0].content);
        CPPUNIT_ASSERT_EQUAL(std::string(".png"), got[0].extension);
        CPPUNIT_ASSERT_EQUAL(std::string("a"), got[1].key);
        CPPUNIT_ASSERT_EQUAL(std::string(".jpg"), got[1].extension);
    }

    void quoted_boundary_and_upper_case_type_are_read() {
        std::string body = file_part("file", "q.gif", "GIF89a") + "--XyZ--\r\n";
        std::vector<Upload> got =
            read_uploads(upload("Multipart/Form-Data; boundary=\"XyZ\"", body), limits());
        CPPUNIT_ASSERT_EQUAL(size_t(1), got.size());
        CPPUNIT_ASSERT_EQUAL(std::string("GIF89a"), got[0].content);
    }

    void other_media_type_is_415() {
        CPPUNIT_ASSERT_EQUAL(status_code(415, Code::multipart_required),
                             rejection("application/json", "{}"));
        CPPUNIT_ASSERT_EQUAL(status_code(415, Code::multipart_required), rejection("", ""));
    }

    void missing_boundary_is_400() {
        CPPUNIT_ASSERT_EQUAL(status_code(400, Code::parameter),
                             rejection("multipart/form-data", file_part("f", "a.png", "x")));
    }

    void unterminated_part_headers_are_400() {
        std::string headers = "Content-Disposition: form-data; name=\"f\"; filename=\"a.png\"\r\n";
        CPPUNIT_ASSERT_EQUAL(status_code(400, Code::parameter),
                             rejection(k_type, "--XyZ\r\n" + headers + "--XyZ--\r\n"));
    }

    void only_fields_or_empty_files_is_404() {
        CPPUNIT_ASSERT_EQUAL(status_code(404, Code::no_file),
                             rejection(k_type, part("name", nullptr, "v") + "--XyZ--\r\n"));
        CPPUNIT_ASSERT_EQUAL(status_code(404, Code::no_file),
                             rejection(k_type, file_part("f", "a.png", "") + "--XyZ--\r\n"));
        CPPUNIT_ASSERT_EQUAL(status_code(404, Code::no_file), rejection(k_type, ""));
    }

    void more_files_than_file_max_count_is_413() {
        std::string body = file_part("a", "a.png", "1") + file_part("b", "b.png", "2") +
                           file_part("c", "c.png", "3") + "--XyZ--\r\n";
        CPPUNIT_ASSERT_EQUAL(status_code(413, Code::too_many_files), rejection(k_type, body));
    }

    void file_over_file_single_limit_is_413() {
        CPPUNIT_ASSERT_EQUAL(
            status_code(413, Code::file_too_large),
            rejection(k_type, file_part("f", "a.png", "123456789") + "--XyZ--\r\n"));
    }

    void extension_outside_the_list_or_missing_is_406() {
        for (const char *name : {"tool.exe", "png", "a.png.", "a.p/g"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(
                name, status_code(406, Code::file_extension),
                rejection(k_type, file_part("f", name, "x") + "--XyZ--\r\n"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FileHandlersTest);
