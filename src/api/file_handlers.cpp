// POST /cms/file: the multipart body is parsed by cgicc, every file part is checked (count, size,
// type read from its content) before anything is written, then FileStore saves them in the
// request's transaction.
#include "api/file_handlers.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <cgicc/CgiInput.h>
#include <cgicc/Cgicc.h>

#include "base/config.h"
#include "base/errors.h"
#include "base/log.h"
#include "base/text.h"
#include "base/utf8.h"
#include "db/file_store.h"
#include "http/context.h"
#include "http/handler_util.h"
#include "http/request.h"
#include "http/response.h"

namespace cms {

namespace {

// cgicc reads the request through this: a POST whose body is req.body (read and capped already).
class BodyInput : public cgicc::CgiInput {
  public:
    explicit BodyInput(const Request &req)
        : req_(req), content_type_(unquote_boundary(req.content_type)),
          length_(std::to_string(req.body.size())) {}
    size_t read(char *data, size_t length) override {
        size_t n = std::min(length, req_.body.size() - offset_);
        std::memcpy(data, req_.body.data() + offset_, n);
        offset_ += n;
        return n;
    }
    std::string getenv(const char *name) override {
        if (std::strcmp(name, "REQUEST_METHOD") == 0)
            return "POST";
        if (std::strcmp(name, "CONTENT_TYPE") == 0)
            return content_type_;
        if (std::strcmp(name, "CONTENT_LENGTH") == 0)
            return length_;
        return {};
    }

  private:
    // RFC 2046 allows boundary="x"; cgicc takes the quotes for part of the boundary.
    static std::string unquote_boundary(std::string type) {
        size_t at = type.find("boundary=\"");
        if (at != std::string::npos) {
            size_t close = type.find('"', at + 10);
            if (close != std::string::npos) {
                type.erase(close, 1);
                type.erase(at + 9, 1);
            }
        }
        return type;
    }

    const Request &req_;
    std::string content_type_;
    std::string length_;
    size_t offset_ = 0;
};

// multipart/form-data with a boundary, the type compared case-insensitively.
void check_multipart(const std::string &content_type) {
    if (media_type(content_type) != "multipart/form-data")
        throw ApiError(415, Code::multipart_required);
    if (content_type.find("boundary=") == std::string::npos)
        throw ApiError(400, Code::parameter, Code::multipart_malformed);
}

// The non-empty file parts of the body, in body order; 400 for a body cgicc cannot parse.
std::vector<cgicc::FormFile> file_parts(const Request &req) {
    check_multipart(req.content_type);
    BodyInput input(req);
    std::vector<cgicc::FormFile> parts;
    try {
        cgicc::Cgicc cgi(&input);
        for (const cgicc::FormFile &part : cgi.getFiles())
            if (part.getDataLength() > 0)
                parts.push_back(part);
    } catch (const std::runtime_error &) {
        // cgicc's only complaint about a body: a part whose headers never end.
        throw ApiError(400, Code::parameter, Code::multipart_malformed);
    }
    return parts;
}

// The types an upload may have, known by their first bytes, and the extensions that name each:
// the first of them that file_extensions lists is the one stored, and so the type nginx serves.
struct ImageType {
    std::string_view signature;
    const char *extensions[2];
};

const ImageType k_image_types[] = {
    {std::string_view("\x89PNG\r\n\x1a\n", 8), {".png", nullptr}},
    {"\xff\xd8\xff", {".jpg", ".jpeg"}},
    {"GIF87a", {".gif", nullptr}},
    {"GIF89a", {".gif", nullptr}},
};

// The extension of the content's type, whatever the client named the file (the Lin CMS client's
// avatar cropper sends PNG bytes named avatar.jpg); 406 for another type or one not allowed.
std::string content_extension(const std::string &content, const Config &config) {
    for (const ImageType &type : k_image_types) {
        if (content.compare(0, type.signature.size(), type.signature) != 0)
            continue;
        for (const char *extension : type.extensions)
            for (const std::string &allowed : config.file_extensions)
                if (extension != nullptr && text::lower(allowed) == extension)
                    return extension;
    }
    throw ApiError(406, Code::file_extension);
}

} // namespace

std::vector<Upload> read_uploads(const Request &req, const Config &config) {
    std::vector<cgicc::FormFile> parts = file_parts(req);
    if (parts.empty())
        throw ApiError(404, Code::no_file);
    if (parts.size() > static_cast<size_t>(config.file_max_count))
        throw ApiError(413, Code::too_many_files);
    std::vector<Upload> uploads;
    for (const cgicc::FormFile &part : parts) {
        if (part.getDataLength() > static_cast<size_t>(config.file_single_limit))
            throw ApiError(413, Code::file_too_large);
        std::string extension = content_extension(part.getData(), config);
        if (!utf8::valid_text(part.getName()))
            throw ApiError(400, Code::parameter);
        uploads.push_back(Upload{part.getName(), part.getData(), extension});
    }
    return uploads;
}

namespace {

// A full file system is the host's condition, not the request's: 507 with its own code, so the
// client may try again later and the operator's monitoring can tell it from a bug (500). The
// transaction rolls back: no row, and FileStore leaves no file.
StoredFile save_file(FileStore &store, const Upload &upload) {
    try {
        return store.save(upload.content, upload.extension);
    } catch (const StoreFull &e) {
        log_error(std::string("file store full: ") + e.what());
        throw ApiError(507, Code::file_store_full);
    }
}

Json::Value file_json(const std::string &key, const StoredFile &file, const Config &config) {
    std::string base = config.file_public_url;
    if (!base.empty() && base.back() != '/')
        base += '/';
    Json::Value out(Json::objectValue);
    out["id"] = static_cast<Json::Int64>(file.id);
    out["key"] = key;
    out["path"] = file.path;
    out["url"] = base + file.path;
    return out;
}

} // namespace

Response handle_file_upload(const Request &req, Ctx &ctx) {
    std::vector<Upload> uploads = read_uploads(req, ctx.config);
    FileStore store(ctx.db, ctx.config.file_store_dir);
    Json::Value items(Json::arrayValue);
    for (const Upload &upload : uploads) {
        StoredFile file = save_file(store, upload);
        items.append(file_json(upload.key, file, ctx.config));
    }
    return Response::json(200, items);
}

} // namespace cms
