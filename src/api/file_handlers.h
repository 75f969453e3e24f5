// File upload (doc/lin-cms.md §6.3, doc/api.md §5): multipart → limits, allow-list → FileStore →
// [{id, key, path, url}]. No SQL and no file system access here.
#pragma once

#include <string>
#include <vector>

namespace cms {

struct Config;
struct Request;
struct Response;
struct Ctx;

// A checked file part: its field name (echoed as `key`), its bytes and its extension.
struct Upload {
    std::string key;
    std::string content;
    std::string extension; // lower-case, with the dot
};

// The file parts of req's multipart/form-data body, in body order, each checked against config
// (count, extension, size); throws ApiError 415, 400, 404, 413 or 406. Pure: nothing is stored.
std::vector<Upload> read_uploads(const Request &req, const Config &config);

Response handle_file_upload(const Request &req, Ctx &ctx);

} // namespace cms
