// Operations routes (api.md §6): liveness without the database, readiness with it.
#pragma once

namespace cms {

struct Request;
struct Response;
struct Ctx;

Response handle_health_live(const Request &req, Ctx &ctx);
Response handle_health_ready(const Request &req, Ctx &ctx);

} // namespace cms
