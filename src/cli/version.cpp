// The version text. The libraries that have a version call answer it at run time (what is linked
// in, whichever build); those without one (argon2, libfcgi, cgicc) are named by the Debian packages that
// configure found (CMS_BUILD_PACKAGES), as is the release build's origin (CMS_BUILD_ORIGIN).
#include "cli/version.h"

#include <gd.h>
#include <json/version.h>
#include <mysql.h>
#include <openssl/crypto.h>
#include <png.h>
#include <utility>
#include <zlib.h>

#ifndef CMS_VERSION
#define CMS_VERSION "unknown"
#endif
#ifndef CMS_BUILD_ORIGIN
#define CMS_BUILD_ORIGIN ""
#endif
#ifndef CMS_BUILD_PACKAGES
#define CMS_BUILD_PACKAGES ""
#endif

namespace cms {

namespace {

std::string or_unrecorded(const char *text) {
    return *text != '\0' ? text : "not recorded";
}

std::string compiler() {
#if defined(__clang__)
    return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    return std::string("g++ ") + __VERSION__;
#else
    return "unknown compiler";
#endif
}

} // namespace

std::string version_text(bool verbose) {
    std::string out = std::string("cms-fcgi ") + CMS_VERSION + "\n";
    if (!verbose)
        return out;
    const std::pair<const char *, std::string> lines[] = {
        {"compiler", compiler()},
        {"build", or_unrecorded(CMS_BUILD_ORIGIN)},
        {"openssl", OpenSSL_version(OPENSSL_VERSION)},
        {"mariadb-connector-c", mysql_get_client_info()},
        {"jsoncpp", JSONCPP_VERSION_STRING},
        {"libgd", gdVersionString()},
        {"libpng", png_get_libpng_ver(nullptr)},
        {"zlib", zlibVersion()},
        {"argon2", "no version call: see the packages"},
        {"libfcgi", "no version call: see the packages"},
        {"cgicc", "no version call: see the packages"},
        {"packages", or_unrecorded(CMS_BUILD_PACKAGES)},
    };
    for (const auto &[name, value] : lines)
        out += std::string(name) + ": " + value + "\n";
    return out;
}

} // namespace cms
