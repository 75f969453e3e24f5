// Book storage: the SQL of the book resource and its row mapping.
#include "db/book_store.h"

#include "db/db.h"

namespace cms {

namespace {

constexpr const char *k_sql_select_book_by_id =
    "SELECT id, title, author, summary, image FROM book WHERE id = ? AND delete_time IS NULL";
constexpr const char *k_sql_select_books =
    "SELECT id, title, author, summary, image FROM book WHERE delete_time IS NULL ORDER BY id "
    "LIMIT ?";
constexpr const char *k_sql_select_book_page =
    "SELECT id, title, author, summary, image FROM book WHERE delete_time IS NULL ORDER BY id "
    "LIMIT ? OFFSET ?";
constexpr const char *k_sql_count_books = "SELECT COUNT(*) FROM book WHERE delete_time IS NULL";
constexpr const char *k_sql_search_books =
    "SELECT id, title, author, summary, image FROM book "
    "WHERE delete_time IS NULL AND title LIKE CONCAT('%', ?, '%') ESCAPE '\\\\' "
    "ORDER BY id LIMIT ?";
constexpr const char *k_sql_count_search_books =
    "SELECT COUNT(*) FROM book "
    "WHERE delete_time IS NULL AND title LIKE CONCAT('%', ?, '%') ESCAPE '\\\\'";
constexpr const char *k_sql_insert_book =
    "INSERT INTO book (title, author, summary, image) VALUES (?, ?, ?, ?)";
constexpr const char *k_sql_update_book =
    "UPDATE book SET title = ?, author = ?, summary = ?, image = COALESCE(?, image) "
    "WHERE id = ? AND delete_time IS NULL";
constexpr const char *k_sql_delete_book =
    "UPDATE book SET delete_time = CURRENT_TIMESTAMP(3) WHERE id = ? AND delete_time IS NULL";

Book read_book(const db::Statement &row) {
    return Book{row.integer(0), row.text(1), row.optional_text(2), row.optional_text(3),
                row.optional_text(4)};
}

std::vector<Book> read_books(db::Statement &stmt) {
    std::vector<Book> books;
    while (stmt.next())
        books.push_back(read_book(stmt));
    return books;
}

} // namespace

std::optional<Book> BookStore::find(int64_t id) {
    db::Statement &stmt = db_.statement(k_sql_select_book_by_id).execute({id});
    if (!stmt.next())
        return std::nullopt;
    return read_book(stmt);
}

std::vector<Book> BookStore::list(int64_t limit, int64_t &total) {
    total = db_.statement(k_sql_count_books).execute({}).scalar();
    return read_books(db_.statement(k_sql_select_books).execute({limit}));
}

std::vector<Book> BookStore::list_page(int64_t page, int64_t count, int64_t &total) {
    total = db_.statement(k_sql_count_books).execute({}).scalar();
    return read_books(db_.statement(k_sql_select_book_page).execute({count, page * count}));
}

std::vector<Book> BookStore::search(const std::string &text, int64_t limit, int64_t &total) {
    std::string pattern = db::like_literal(text);
    total = db_.statement(k_sql_count_search_books).execute({pattern}).scalar();
    return read_books(db_.statement(k_sql_search_books).execute({pattern, limit}));
}

std::optional<Book> BookStore::first_match(const std::string &text) {
    db::Statement &stmt =
        db_.statement(k_sql_search_books).execute({db::like_literal(text), int64_t(1)});
    std::optional<Book> book;
    while (stmt.next()) // one row at most; read to the end so that the statement is done
        book = read_book(stmt);
    return book;
}

int64_t BookStore::insert(const BookFields &f) {
    db::Statement &stmt =
        db_.statement(k_sql_insert_book).execute({f.title, f.author, f.summary, f.image});
    return static_cast<int64_t>(stmt.insert_id());
}

bool BookStore::update(int64_t id, const BookFields &f) {
    // The connection sets CLIENT_FOUND_ROWS: an update that changes nothing still counts 1.
    return db_.statement(k_sql_update_book)
               .execute({f.title, f.author, f.summary, f.image, id})
               .affected_rows() == 1;
}

bool BookStore::remove(int64_t id) {
    return db_.statement(k_sql_delete_book).execute({id}).affected_rows() == 1;
}

} // namespace cms
