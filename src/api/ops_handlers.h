// Operations routes (doc/api.md §6): liveness without the database, readiness with it, and the
// pool's status page (not part of the Lin CMS API).
#pragma once

namespace cms {

struct Request;
struct Response;
struct Ctx;

Response handle_health_live(const Request &req, Ctx &ctx);
Response handle_health_ready(const Request &req, Ctx &ctx);
// The pool's status page (doc/operations.md, Monitoring): JSON, or metrics with ?format=prometheus,
// ?format=openmetrics or an Accept header that asks for them; ?full adds each worker thread.
// A client outside status_allow gets the usual 404.
Response handle_pool_status(const Request &req, Ctx &ctx);

} // namespace cms
