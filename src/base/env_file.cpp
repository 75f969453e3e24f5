// The subset of systemd.exec(5)'s EnvironmentFile= syntax that cms.env uses: one KEY=VALUE a
// line, comments, quotes around a value. No escapes, no continuation lines: a value that
// systemd would read otherwise (a backslash, a quote inside) is refused, not read differently.
#include "base/env_file.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace cms {

namespace {

std::string trim(const std::string &s) {
    size_t begin = s.find_first_not_of(" \t\r");
    if (begin == std::string::npos)
        return "";
    return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

bool valid_name(const std::string &name) {
    if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
        return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return false;
    return true;
}

} // namespace

void load_env_file(const std::string &path) {
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read environment file '" + path + "'");
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        line = trim(line);
        if (line.empty() || line[0] == '#' || line[0] == ';')
            continue;
        size_t eq = line.find('=');
        std::string name = eq == std::string::npos ? "" : trim(line.substr(0, eq));
        if (!valid_name(name))
            throw std::runtime_error(path + ":" + std::to_string(number) +
                                     ": not a KEY=VALUE line");
        std::string value = trim(line.substr(eq + 1));
        char quote = value.size() >= 2 && (value[0] == '"' || value[0] == '\'') &&
                             value.back() == value[0]
                         ? value[0]
                         : '\0';
        if (quote != '\0')
            value = value.substr(1, value.size() - 2);
        // systemd reads a backslash as an escape (or a continued line) and a quote anywhere as
        // the start of quoting: such a value would differ between --env and the service, and a
        // password that differs is an account the pool cannot log in to.
        if (value.find('\\') != std::string::npos ||
            (quote != '\0' ? value.find(quote) : value.find_first_of("\"'")) != std::string::npos)
            throw std::runtime_error(path + ":" + std::to_string(number) +
                                     ": a backslash or a quote inside the value, which systemd "
                                     "reads otherwise");
        setenv(name.c_str(), value.c_str(), 1);
    }
}

} // namespace cms
