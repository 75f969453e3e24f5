// Unit tests for src/http/idempotency.cpp's fingerprint: known answers made with Python's hmac
// module (the key HMAC-SHA256(jwt_secret, "cms-fcgi idempotency fingerprint v1"), the fingerprint
// HMAC-SHA256 under it), which a key that is jwt_secret itself or another label cannot give.
#include "http/idempotency.h"

#include "http/request.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

namespace {

const std::string k_secret = "unit-test secret of thirty-two bytes!!";
const std::string k_part = "Content-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n"
                           "\r\nPNG\r\n";

cms::Request request(const std::string &path, const std::string &content_type,
                     const std::string &body) {
    cms::Request req;
    req.method = "POST";
    req.path = path;
    req.content_type = content_type;
    req.body = body;
    return req;
}

} // namespace

class IdempotencyTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(IdempotencyTest);
    CPPUNIT_TEST(json_fingerprint_is_keyed_by_the_derived_key);
    CPPUNIT_TEST(multipart_fingerprint_leaves_the_boundary_out);
    CPPUNIT_TEST(another_secret_gives_another_fingerprint);
    CPPUNIT_TEST_SUITE_END();

  public:
    void json_fingerprint_is_keyed_by_the_derived_key() {
        // Under jwt_secret itself it would be ed61af4b8d0aa8d68e7155542445ce605916ab613cc6321802c4118937ce059b.
        CPPUNIT_ASSERT_EQUAL(
            std::string("b6cbdf3599216e027b24f82cddc8940e311267d1cf883ff7f9431fadc0dc7a9c"),
            cms::request_fingerprint(
                request("/v1/book", "application/json", "{\"title\":\"Dune\"}"), k_secret));
    }

    void multipart_fingerprint_leaves_the_boundary_out() {
        const std::string known =
            "ab2c6ef1f1eb705887bc28229733773e129ba6a8ae1c21bd684d42c8f12bbf3f";
        CPPUNIT_ASSERT_EQUAL(
            known, cms::request_fingerprint(request("/cms/file", "multipart/form-data; boundary=XyZ",
                                                    "--XyZ\r\n" + k_part + "--XyZ--\r\n"),
                                            k_secret));
        CPPUNIT_ASSERT_EQUAL(
            known,
            cms::request_fingerprint(request("/cms/file", "multipart/form-data; boundary=\"q-7\"",
                                             "--q-7\r\n" + k_part + "--q-7--\r\n"),
                                     k_secret));
    }

    void another_secret_gives_another_fingerprint() {
        cms::Request req = request("/v1/book", "application/json", "{\"title\":\"Dune\"}");
        CPPUNIT_ASSERT(cms::request_fingerprint(req, k_secret) !=
                       cms::request_fingerprint(req, k_secret + "!"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IdempotencyTest);
