// Route matching over the compiled route table, and the body cap a route reads with.
#include "http/router.h"

#include <algorithm>
#include <cstring>

#include "base/config.h"
#include "metrics/scoreboard.h" // k_max_templates

namespace cms {

namespace {

std::vector<std::string_view> split_path(std::string_view path) {
    std::vector<std::string_view> parts;
    size_t start = 1;
    while (start <= path.size()) {
        size_t slash = path.find('/', start);
        if (slash == std::string_view::npos)
            slash = path.size();
        if (slash > start)
            parts.push_back(path.substr(start, slash - start));
        start = slash + 1;
    }
    return parts;
}

} // namespace

int64_t body_cap(const Route &route, const Config &config) {
    if (route.upload)
        return config.file_total_limit;
    if (route.body_cap > 0)
        return std::min(route.body_cap, config.max_body_bytes);
    return config.max_body_bytes;
}

namespace {

// The distinct patterns of routes, in table order, fewer than k_max_templates of them; and each
// route's index among them, that count (unmatched) for a route past the cap. Literals are
// compared, no string is built: a CGI request builds a router and never counts.
std::vector<const char *> label_patterns(const std::vector<Route> &routes,
                                         std::vector<uint16_t> &index_of) {
    std::vector<const char *> names;
    for (const Route &route : routes) {
        size_t i = 0;
        while (i < names.size() && std::strcmp(names[i], route.pattern) != 0)
            ++i;
        if (i == names.size() && names.size() + 1 < k_max_templates)
            names.push_back(route.pattern);
        index_of.push_back(static_cast<uint16_t>(i));
    }
    for (uint16_t &index : index_of)
        index = index < names.size() ? index : static_cast<uint16_t>(names.size());
    return names;
}

} // namespace

std::vector<std::string> route_templates(const std::vector<Route> &routes) {
    std::vector<uint16_t> index_of;
    std::vector<const char *> patterns = label_patterns(routes, index_of);
    std::vector<std::string> names(patterns.begin(), patterns.end());
    names.emplace_back("unmatched");
    return names;
}

Router::Router(const std::vector<Route> &routes) : first_(routes.data()) {
    unmatched_ = static_cast<uint16_t>(label_patterns(routes, template_of_).size());
    for (const Route &route : routes) {
        Compiled c{&route, {}, 0};
        for (std::string_view part : split_path(route.pattern)) {
            bool param = part.size() >= 2 && part.front() == '{' && part.back() == '}';
            c.segments.emplace_back(param ? "{}" : std::string(part));
            c.literals += param ? 0 : 1;
        }
        compiled_.push_back(std::move(c));
    }
}

uint16_t Router::template_index(const Route *route) const {
    if (route != nullptr && route >= first_ && route < first_ + template_of_.size())
        return template_of_[static_cast<size_t>(route - first_)];
    return unmatched_;
}

Router::Match Router::match(std::string_view method, std::string_view path) const {
    if (method == "HEAD")
        method = "GET";
    std::vector<std::string_view> parts = split_path(path);
    // The path's routes are those of its most literal pattern: /group/all is not /group/{id}.
    std::vector<const Compiled *> same_path;
    for (const Compiled &c : compiled_) {
        if (c.segments.size() != parts.size())
            continue;
        bool ok = true;
        for (size_t i = 0; i < parts.size() && ok; ++i)
            ok = c.segments[i] == "{}" || c.segments[i] == parts[i];
        if (!ok || (!same_path.empty() && c.literals < same_path.front()->literals))
            continue;
        if (!same_path.empty() && c.literals > same_path.front()->literals)
            same_path.clear();
        same_path.push_back(&c);
    }
    Match result;
    for (const Compiled *c : same_path) {
        std::string name = c->route->method;
        // HEAD is answered wherever GET is (as GET without its body).
        if (name == "GET")
            name += ", HEAD";
        if (result.allow.find(name) == std::string::npos)
            result.allow += (result.allow.empty() ? "" : ", ") + name;
        if (method != c->route->method || result.route != nullptr)
            continue;
        result.route = c->route;
        for (size_t i = 0; i < parts.size(); ++i)
            if (c->segments[i] == "{}")
                result.params.emplace_back(parts[i]);
    }
    result.path_known = !same_path.empty();
    if (result.path_known)
        result.allow += ", OPTIONS";
    return result;
}

std::vector<Permission> declared_permissions(const std::vector<Route> &routes) {
    std::vector<Permission> out;
    for (const Route &route : routes) {
        if (route.permission.name == nullptr)
            continue;
        bool seen = false;
        for (const Permission &p : out)
            seen = seen || (std::strcmp(p.module, route.permission.module) == 0 &&
                            std::strcmp(p.name, route.permission.name) == 0);
        if (!seen)
            out.push_back(route.permission);
    }
    return out;
}

} // namespace cms
