// Fuzz target: a message table through Messages::parse, then every code's text into an error
// envelope written as JSON, as the loop does for each failure.
#include "base/errors.h"
#include "base/json.h"
#include "base/utf8.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

// Treats data as the text of conf/code-message.properties. Accepted texts are UTF-8.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::optional<cms::Messages> messages;
    try {
        messages =
            cms::Messages::parse(std::string(reinterpret_cast<const char *>(data), size), "fuzz");
    } catch (const std::runtime_error &) {
        return 0;
    }
    for (cms::Code code :
         {cms::Code::ok, cms::Code::internal, cms::Code::not_found, cms::Code::parameter,
          cms::Code::json_malformed, cms::Code::book_not_found}) {
        if (!cms::utf8::valid(messages->text(code)))
            std::abort();
        cms::ApiError error(400, code);
        error.fall_back_to(cms::Code::not_found);
        cms::json::write(cms::error_envelope(error, *messages, "GET /v1/book/1"));
    }
    return 0;
}
