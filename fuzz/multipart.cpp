// Fuzz target: an upload's Content-Type and body through read_uploads (file_handlers.h): the media
// type and boundary check, cgicc's multipart parser and the count, extension and size checks.
#include "api/file_handlers.h"
#include "base/config.h"
#include "base/errors.h"
#include "http/request.h"

#include <cstdint>
#include <cstdlib>
#include <string>

// Treats data as the Content-Type, a newline, then the body. Accepted parts respect the limits.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const cms::Config config = [] {
        cms::Config c = cms::parse_config("", "fuzz");
        c.file_max_count = 3; // small limits, so inputs reach them
        c.file_single_limit = 64;
        return c;
    }();
    std::string input(reinterpret_cast<const char *>(data), size);
    size_t newline = input.find('\n');
    if (newline == std::string::npos || input.find('\0') < newline)
        return 0;
    cms::Request req;
    req.method = "POST";
    req.path = "/cms/file";
    req.content_type = input.substr(0, newline);
    req.body = input.substr(newline + 1);
    std::vector<cms::Upload> uploads;
    try {
        uploads = cms::read_uploads(req, config);
    } catch (const cms::ApiError &) {
        return 0;
    }
    if (uploads.empty() || uploads.size() > static_cast<size_t>(config.file_max_count))
        std::abort();
    for (const cms::Upload &upload : uploads)
        if (upload.content.empty() || upload.content.size() > 64 || upload.extension.empty() ||
            upload.extension[0] != '.' || upload.extension.find('/') != std::string::npos)
            std::abort();
    return 0;
}
