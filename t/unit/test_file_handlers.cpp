// Unit tests for src/api/file_handlers.cpp: read_uploads, the pure part of an upload (media type and
// boundary, multipart parts, count, extension and size checks). Storing is t/0400-file-upload.t's.
#include "api/file_handlers.h"
#include "base/config.h"
#include "base/errors.h"
#include "http/request.h"

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
// The first bytes of each type read_uploads accepts.
const std::string k_png("\x89PNG\r\n\x1a\n", 8);
const std::string k_jpeg = "\xff\xd8\xff";
const std::string k_gif = "GIF89a";

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
std::string rejection(const std::string &content_type, const std::string &body,
                      const Config &config = limits()) {
    try {
        read_uploads(upload(content_type, body), config);
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
    CPPUNIT_TEST(file_parts_come_in_body_order_with_the_extension_of_their_content);
    CPPUNIT_TEST(png_named_jpg_is_stored_as_png);
    CPPUNIT_TEST(jpeg_takes_jpeg_when_only_that_is_allowed);
    CPPUNIT_TEST(type_not_in_the_allow_list_is_406);
    CPPUNIT_TEST(quoted_boundary_and_upper_case_type_are_read);
    CPPUNIT_TEST(other_media_type_is_415);
    CPPUNIT_TEST(missing_boundary_is_400);
    CPPUNIT_TEST(unterminated_part_headers_are_400);
    CPPUNIT_TEST(only_fields_or_empty_files_is_404);
    CPPUNIT_TEST(more_files_than_file_max_count_is_413);
    CPPUNIT_TEST(file_over_file_single_limit_is_413);
    CPPUNIT_TEST(content_of_another_type_is_406_whatever_its_name);
    CPPUNIT_TEST_SUITE_END();

  public:
    void file_parts_come_in_body_order_with_the_extension_of_their_content() {
        std::vector<Upload> got = read_uploads(
            upload(k_type, part("name", nullptr, "v") + file_part("b", "one.PNG", k_png) +
                               file_part("a", "../two.jpg", k_jpeg + "x") + "--XyZ--\r\n"),
            limits());
        CPPUNIT_ASSERT_EQUAL(size_t(2), got.size());
        CPPUNIT_ASSERT_EQUAL(std::string("b"), got[0].key);
        CPPUNIT_ASSERT_EQUAL(k_png, got[0].content);
        CPPUNIT_ASSERT_EQUAL(std::string(".png"), got[0].extension);
        CPPUNIT_ASSERT_EQUAL(std::string("a"), got[1].key);
        CPPUNIT_ASSERT_EQUAL(std::string(".jpg"), got[1].extension);
    }

    // What the Lin CMS client's avatar cropper sends.
    void png_named_jpg_is_stored_as_png() {
        std::vector<Upload> got =
            read_uploads(upload(k_type, file_part("file", "avatar.jpg", k_png) + "--XyZ--\r\n"),
                         limits());
        CPPUNIT_ASSERT_EQUAL(std::string(".png"), got.at(0).extension);
    }

    void jpeg_takes_jpeg_when_only_that_is_allowed() {
        Config config = limits();
        config.file_extensions = {".PNG", ".JPEG"};
        std::vector<Upload> got =
            read_uploads(upload(k_type, file_part("file", "a.png", k_jpeg) + "--XyZ--\r\n"), config);
        CPPUNIT_ASSERT_EQUAL(std::string(".jpeg"), got.at(0).extension);
    }

    void type_not_in_the_allow_list_is_406() {
        Config config = limits();
        config.file_extensions = {".png", ".jpg", ".jpeg"};
        CPPUNIT_ASSERT_EQUAL(status_code(406, Code::file_extension),
                             rejection(k_type, file_part("f", "a.gif", k_gif) + "--XyZ--\r\n",
                                       config));
    }

    void quoted_boundary_and_upper_case_type_are_read() {
        std::string body = file_part("file", "q.gif", k_gif) + "--XyZ--\r\n";
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

    void content_of_another_type_is_406_whatever_its_name() {
        const std::string png_start = k_png.substr(0, 7);
        for (const std::string &content : {std::string("MZ"), std::string("x"), png_start,
                                           std::string("GIF88a"), std::string("\xff\xd8")})
            for (const char *name : {"a.png", "a.jpg", "tool.exe", "png"})
                CPPUNIT_ASSERT_EQUAL_MESSAGE(
                    name, status_code(406, Code::file_extension),
                    rejection(k_type, file_part("f", name, content) + "--XyZ--\r\n"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FileHandlersTest);
