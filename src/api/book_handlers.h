// Book routes (doc/api.md §4): parse → validate → BookStore → response. No SQL here.
#pragma once

namespace cms {

struct Request;
struct Response;
struct Ctx;

Response handle_book_get(const Request &req, Ctx &ctx);
Response handle_book_list(const Request &req, Ctx &ctx);
Response handle_book_search(const Request &req, Ctx &ctx);
// koa's search: the live book of lowest id whose title contains q, or 404/10022.
Response handle_book_search_one(const Request &req, Ctx &ctx);
Response handle_book_create(const Request &req, Ctx &ctx);
Response handle_book_update(const Request &req, Ctx &ctx);
Response handle_book_delete(const Request &req, Ctx &ctx);

} // namespace cms
