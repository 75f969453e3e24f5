// Client address lists (status_allow): which REMOTE_ADDR a list of addresses, CIDR blocks,
// "unix:" and "*" lets in. Pure: no I/O, nothing kept between calls.
#pragma once

#include <string>
#include <vector>

namespace cms::address_list {

// Why entry is not a list entry ("*", "unix:", an IPv4 or IPv6 address, either with /prefix),
// or "" when it is one.
std::string entry_error(const std::string &entry);

// Whether remote, a client address as the web server gives it (REMOTE_ADDR), matches an entry of
// entries: "*" matches any; "unix:" matches "unix:" (a client of a web server on a unix socket);
// an address matches the same address however it is written; a CIDR block the addresses whose
// first prefix bits are its own. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is matched as
// a.b.c.d. An entry that entry_error refuses matches nothing.
bool matches(const std::vector<std::string> &entries, const std::string &remote);

} // namespace cms::address_list
