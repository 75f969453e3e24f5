// A scanner for mariadb-dump's output: comments and statements line by line, and the values of
// INSERT statements (which may span lines) character by character, honouring quotes and escapes.
#include "db/dump_scan.h"

#include <cctype>
#include <stdexcept>

namespace cms::dump {

namespace {

constexpr const char *k_files_table = "lin_file";

// A value of a VALUES tuple: NULL, or its text with quotes and escapes undone.
struct Value {
    bool null = false;
    std::string text;
};

class Parser {
  public:
    explicit Parser(std::istream &in) : in_(in) {}

    int get() { return in_.get(); }
    int peek() { return in_.peek(); }

    void expect(char c, const char *where) {
        skip_space();
        if (get() != c)
            throw std::runtime_error(std::string("the dump cannot be read: expected '") + c +
                                     "' " + where);
    }

    void skip_space() {
        while (std::isspace(peek()))
            get();
    }

    // The upper-case letters at the current place, and one space after them if there is one.
    std::string keyword() {
        std::string word;
        while (std::isupper(peek()))
            word += static_cast<char>(get());
        if (peek() == ' ')
            get();
        return word;
    }

    // `name`, with `` standing for one backquote.
    std::string identifier() {
        expect('`', "before a name");
        std::string name;
        for (;;) {
            int c = get();
            if (c == EOF)
                throw std::runtime_error("the dump cannot be read: a name does not end");
            if (c == '`') {
                if (peek() != '`')
                    return name;
                get();
            }
            name += static_cast<char>(c);
        }
    }

    Value value() {
        skip_space();
        Value v;
        int c = peek();
        if (c == '\'') {
            get();
            for (;;) {
                c = get();
                if (c == EOF)
                    throw std::runtime_error("the dump cannot be read: a string does not end");
                if (c == '\'') {
                    if (peek() != '\'')
                        return v;
                    get();
                } else if (c == '\\') {
                    c = get();
                    switch (c) {
                    case '0': c = '\0'; break;
                    case 'n': c = '\n'; break;
                    case 'r': c = '\r'; break;
                    case 't': c = '\t'; break;
                    case 'Z': c = '\032'; break;
                    case EOF:
                        throw std::runtime_error("the dump cannot be read: a string does not end");
                    default: break;
                    }
                }
                v.text += static_cast<char>(c);
            }
        }
        // A number, NULL or 0x... (hex-blob): everything up to the next , or ).
        while ((c = peek()) != EOF && c != ',' && c != ')' && !std::isspace(c))
            v.text += static_cast<char>(get());
        v.null = v.text == "NULL";
        return v;
    }

  private:
    std::istream &in_;
};

// The column of name among columns, or -1.
int column(const std::vector<std::string> &columns, const char *name) {
    for (size_t i = 0; i < columns.size(); ++i)
        if (columns[i] == name)
            return static_cast<int>(i);
    return -1;
}

// Reads one INSERT statement after its `INSERT INTO ` up to its ';'.
void insert(Parser &p, Summary &summary) {
    std::string table = p.identifier();
    p.expect('(', ("after INSERT INTO `" + table + "` (the dump needs --complete-insert)").c_str());
    std::vector<std::string> columns;
    for (;;) {
        columns.push_back(p.identifier());
        p.skip_space();
        int c = p.get();
        if (c == ')')
            break;
        if (c != ',')
            throw std::runtime_error("the dump cannot be read: a column list of `" + table + "`");
    }
    p.skip_space();
    for (const char *word = "VALUES"; *word; ++word)
        if (p.get() != *word)
            throw std::runtime_error("the dump cannot be read: no VALUES for `" + table + "`");
    bool files = table == k_files_table;
    int id = column(columns, "id"), path = column(columns, "path"), name = column(columns, "name"),
        sha256 = column(columns, "sha256");
    if (files && (id < 0 || path < 0 || name < 0))
        throw std::runtime_error("the dump's lin_file rows have no id, path or name");
    int64_t &rows = summary.rows[table];
    for (;;) {
        p.expect('(', ("before a row of `" + table + "`").c_str());
        std::vector<Value> values;
        for (;;) {
            values.push_back(p.value());
            p.skip_space();
            int c = p.get();
            if (c == ')')
                break;
            if (c != ',')
                throw std::runtime_error("the dump cannot be read: a row of `" + table + "`");
        }
        if (values.size() != columns.size())
            throw std::runtime_error("the dump cannot be read: a row of `" + table +
                                     "` has the wrong number of values");
        ++rows;
        if (files) {
            FileRow row;
            row.id = std::stoll(values[static_cast<size_t>(id)].text);
            row.path = values[static_cast<size_t>(path)].text;
            row.name = values[static_cast<size_t>(name)].text;
            if (sha256 >= 0 && !values[static_cast<size_t>(sha256)].null)
                row.sha256 = values[static_cast<size_t>(sha256)].text;
            summary.files.push_back(std::move(row));
        }
        p.skip_space();
        int c = p.get();
        if (c == ';')
            return;
        if (c != ',')
            throw std::runtime_error("the dump cannot be read: after a row of `" + table + "`");
    }
}

bool starts_with(const std::string &line, const char *prefix) {
    return line.rfind(prefix, 0) == 0;
}

// The quoted text after key= in line ("MASTER_LOG_FILE='binlog.000001'"), or empty.
std::string quoted_after(const std::string &line, const std::string &key) {
    size_t at = line.find(key + "='");
    if (at == std::string::npos)
        return {};
    size_t begin = at + key.size() + 2, end = line.find('\'', begin);
    return end == std::string::npos ? std::string() : line.substr(begin, end - begin);
}

void comment(const std::string &line, Summary &summary) {
    if (line.find("CHANGE MASTER TO MASTER_LOG_FILE=") != std::string::npos) {
        BinlogPosition pos;
        pos.file = quoted_after(line, "MASTER_LOG_FILE");
        size_t at = line.find("MASTER_LOG_POS=");
        if (pos.file.empty() || at == std::string::npos)
            throw std::runtime_error("the dump's binary-log position cannot be read");
        pos.position = std::stoull(line.substr(at + 15));
        if (summary.binlog)
            pos.gtid = summary.binlog->gtid;
        summary.binlog = pos;
    } else if (line.find("SET GLOBAL gtid_slave_pos=") != std::string::npos && summary.binlog) {
        summary.binlog->gtid = quoted_after(line, "gtid_slave_pos");
    }
}

} // namespace

Summary scan(std::istream &in) {
    Summary summary;
    Parser p(in);
    std::string line;
    for (;;) {
        // At the start of a line: an INSERT is parsed by value (it may span lines), anything
        // else is read as a line.
        if (in.peek() == 'I') {
            std::string word = p.keyword();
            if (word == "INSERT") {
                if (p.keyword() != "INTO")
                    throw std::runtime_error("the dump cannot be read: INSERT without INTO");
                insert(p, summary);
                std::getline(in, line);
                continue;
            }
            std::getline(in, line);
            line = word + line;
        } else if (!std::getline(in, line)) {
            break;
        }
        if (starts_with(line, "-- "))
            comment(line, summary);
        else if (starts_with(line, "CREATE TABLE `"))
            summary.rows.emplace(line.substr(14, line.find('`', 14) - 14), 0);
    }
    return summary;
}

} // namespace cms::dump
