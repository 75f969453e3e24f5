// The routes of every declared collection (doc/content.md, "Routes"): one handler per operation,
// serving the collection of its route (Route::data, a content::Mount). parse → validate →
// CollectionStore → response. No SQL here.
#pragma once

namespace cms {

struct Request;
struct Response;
struct Ctx;

// GET /v1/<name>: a page {total, items, page, count} of the live rows the query selects.
Response handle_content_list(const Request &req, Ctx &ctx);
// GET /v1/<name>/trash: the same of the deleted rows, for those who may restore.
Response handle_content_trash(const Request &req, Ctx &ctx);
// GET /v1/<name>/{id}: the row, or 404.
Response handle_content_get(const Request &req, Ctx &ctx);
// POST /v1/<name>: 201 with the envelope, the new id and Location.
Response handle_content_create(const Request &req, Ctx &ctx);
// PUT /v1/<name>/{id}: the fields sent; the others are unchanged.
Response handle_content_update(const Request &req, Ctx &ctx);
// DELETE /v1/<name>/{id}: a soft delete.
Response handle_content_delete(const Request &req, Ctx &ctx);
// POST /v1/<name>/{id}/restore: a deleted row back, or 409 when a unique value was taken since.
Response handle_content_restore(const Request &req, Ctx &ctx);

// GET /openapi.json: the collections' OpenAPI document (Route::data, a content::Catalog).
Response handle_content_openapi(const Request &req, Ctx &ctx);

// A path of a collection (or GET /openapi.json) while the applied declaration could not be read
// yet (the database was down when the pool started): 503/10302, as every route that needs the
// database answers then; it connects, so that the next request has the collections.
Response handle_content_unknown(const Request &req, Ctx &ctx);

} // namespace cms
