// Book routes: the validation rules and texts of doc/api.md §4 and the responses they produce.
#include "api/book_handlers.h"

#include "base/config.h"
#include "base/errors.h"
#include "base/utf8.h"
#include "db/book_store.h"
#include "db/db.h"
#include "http/context.h"
#include "http/handler_util.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"

namespace cms {

namespace {

Json::Value book_json(const Book &book) {
    Json::Value out(Json::objectValue);
    out["id"] = static_cast<Json::Int64>(book.id);
    out["title"] = book.title;
    out["author"] = nullable(book.author);
    out["summary"] = nullable(book.summary);
    out["image"] = nullable(book.image);
    return out;
}

Json::Value books_json(const std::vector<Book> &books) {
    Json::Value out(Json::arrayValue);
    for (const Book &book : books)
        out.append(book_json(book));
    return out;
}

// The body of create and update; author is limited to 30, the column's size (doc/api.md §4).
BookFields book_fields(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    BookFields f;
    f.title = validate::required_text(body, "title", 50, FieldText::book_title_not_empty,
                                      FieldText::book_title_length, problems);
    f.author = validate::required_text(body, "author", 30, FieldText::book_author_not_empty,
                                       FieldText::book_author_length, problems);
    f.summary = validate::required_text(body, "summary", 1000, FieldText::book_summary_not_empty,
                                        FieldText::book_summary_length, problems);
    f.image = validate::optional_text(body, "image", 100, FieldText::book_image_length, problems);
    problems.check();
    return f;
}

// The bare array of an unpaged list (doc/api.md §4, §7): cut to list_max_rows by the store, with
// the count of every match so that a client can tell.
Response capped_list(const std::vector<Book> &books, int64_t total) {
    Response res = Response::json(200, books_json(books));
    res.header("X-Total-Count", std::to_string(total));
    return res;
}

// The q of a search: any text (absent is empty, which every title contains), but UTF-8.
std::string search_text(const Request &req) {
    std::string q = req.query("q").value_or("");
    if (!utf8::valid_text(q)) {
        validate::Problems problems;
        problems.add("q", FieldText::book_query_utf8);
        problems.check();
    }
    return q;
}

ApiError book_not_found() { return ApiError(404, Code::book_not_found).fall_back_to(Code::not_found); }

} // namespace

Response handle_book_get(const Request &req, Ctx &ctx) {
    int64_t id = validate::path_id(req.params.at(0));
    std::optional<Book> book = BookStore(ctx.db).find(id);
    if (!book)
        throw book_not_found();
    return Response::json(200, book_json(*book));
}

Response handle_book_list(const Request &req, Ctx &ctx) {
    BookStore store(ctx.db);
    int64_t total = 0;
    if (!req.query("page") && !req.query("count")) {
        std::vector<Book> books = store.list(ctx.config.list_max_rows, total);
        return capped_list(books, total);
    }
    validate::Page page = validate::page_query(req);
    std::vector<Book> books = store.list_page(page.page, page.count, total);
    return Response::json(200, page_json(books_json(books), total, page));
}

Response handle_book_search(const Request &req, Ctx &ctx) {
    std::string q = search_text(req);
    int64_t total = 0;
    std::vector<Book> books = BookStore(ctx.db).search(q, ctx.config.list_max_rows, total);
    return capped_list(books, total);
}

Response handle_book_search_one(const Request &req, Ctx &ctx) {
    std::optional<Book> book = BookStore(ctx.db).first_match(search_text(req));
    if (!book)
        throw book_not_found();
    return Response::json(200, book_json(*book));
}

Response handle_book_create(const Request &req, Ctx &ctx) {
    BookFields fields = book_fields(req, ctx);
    BookStore(ctx.db).insert(fields);
    return message(201, Code::book_created, req, ctx);
}

Response handle_book_update(const Request &req, Ctx &ctx) {
    int64_t id = validate::path_id(req.params.at(0));
    BookFields fields = book_fields(req, ctx);
    if (!BookStore(ctx.db).update(id, fields))
        throw book_not_found();
    return message(200, Code::book_updated, req, ctx);
}

Response handle_book_delete(const Request &req, Ctx &ctx) {
    int64_t id = validate::path_id(req.params.at(0));
    if (!BookStore(ctx.db).remove(id))
        throw book_not_found();
    return message(200, Code::book_deleted, req, ctx);
}

} // namespace cms
