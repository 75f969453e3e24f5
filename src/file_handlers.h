// File upload (survey §6.3, api.md §5): multipart parts → limits and allow-list → FileStore →
// [{id, key, path, url}]. No SQL and no file system access here.
#pragma once

namespace cms {

struct Request;
struct Response;
struct Ctx;

Response handle_file_upload(const Request &req, Ctx &ctx);

} // namespace cms
