// Book storage: every SQL statement on the book table. Live books only (delete_time IS NULL);
// nothing here knows about HTTP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cms {

namespace db {
class Connection;
}

struct Book {
    int64_t id = 0;
    std::string title;
    std::optional<std::string> author;
    std::optional<std::string> summary;
    std::optional<std::string> image;
};

// The writable fields of a book (create and update).
struct BookFields {
    std::string title;
    std::string author;
    std::string summary;
    std::optional<std::string> image;
};

class BookStore {
  public:
    explicit BookStore(db::Connection &db) : db_(db) {}

    std::optional<Book> find(int64_t id);
    // The first limit live books by id, and the total count of live books.
    std::vector<Book> list(int64_t limit, int64_t &total);
    // One page (offset page*count) and the total count of live books.
    std::vector<Book> list_page(int64_t page, int64_t count, int64_t &total);
    // The first limit books by id whose title contains text literally (% and _ match
    // themselves), and the total count of those that do.
    std::vector<Book> search(const std::string &text, int64_t limit, int64_t &total);
    // The live book of lowest id whose title contains text literally; nullopt when none does.
    std::optional<Book> first_match(const std::string &text);
    int64_t insert(const BookFields &fields);
    // false when no live book has the id.
    bool update(int64_t id, const BookFields &fields);
    // Soft delete; false when no live book has the id.
    bool remove(int64_t id);

  private:
    db::Connection &db_;
};

} // namespace cms
