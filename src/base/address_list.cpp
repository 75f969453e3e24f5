// Client address lists: entries and addresses parsed by inet_pton into bytes, compared bit by
// bit up to the entry's prefix, so that a text that merely begins like an allowed address
// (127.0.0.10 against 127.0.0.1) never matches it.
#include "base/address_list.h"

#include <arpa/inet.h>

#include <cstdint>
#include <cstring>
#include <optional>

namespace cms::address_list {

namespace {

constexpr const char *k_unix = "unix:";

struct Address {
    bool v6 = false;
    unsigned char bytes[16] = {};
    int bits() const { return v6 ? 128 : 32; }
};

// An IPv4-mapped IPv6 address (::ffff:0:0/96) as the IPv4 address it carries.
void unmap(Address &a) {
    static const unsigned char k_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (!a.v6 || std::memcmp(a.bytes, k_prefix, sizeof k_prefix) != 0)
        return;
    std::memmove(a.bytes, a.bytes + 12, 4);
    std::memset(a.bytes + 4, 0, 12);
    a.v6 = false;
}

std::optional<Address> parse_address(const std::string &text) {
    Address a;
    if (inet_pton(AF_INET, text.c_str(), a.bytes) == 1)
        return a;
    a.v6 = true;
    if (inet_pton(AF_INET6, text.c_str(), a.bytes) == 1)
        return a;
    return std::nullopt;
}

struct Block {
    Address base;
    int prefix = 0;
};

// "address" or "address/prefix"; nullopt for anything else, or a prefix beyond the family's.
std::optional<Block> parse_block(const std::string &entry) {
    size_t slash = entry.find('/');
    std::optional<Address> base = parse_address(entry.substr(0, slash));
    if (!base)
        return std::nullopt;
    Block block{*base, base->bits()};
    if (slash != std::string::npos) {
        std::string digits = entry.substr(slash + 1);
        if (digits.empty() || digits.size() > 3)
            return std::nullopt;
        block.prefix = 0;
        for (char c : digits) {
            if (c < '0' || c > '9')
                return std::nullopt;
            block.prefix = block.prefix * 10 + (c - '0');
        }
        if (block.prefix > base->bits())
            return std::nullopt;
    }
    // ::ffff:a.b.c.d/N (N >= 96) is the IPv4 block a.b.c.d/(N - 96).
    Address mapped = block.base;
    unmap(mapped);
    if (!mapped.v6 && block.prefix >= 96) {
        block.base = mapped;
        block.prefix -= 96;
    }
    return block;
}

bool in_block(const Block &block, const Address &a) {
    if (block.base.v6 != a.v6)
        return false;
    int whole = block.prefix / 8, rest = block.prefix % 8;
    if (std::memcmp(block.base.bytes, a.bytes, static_cast<size_t>(whole)) != 0)
        return false;
    if (rest == 0)
        return true;
    unsigned mask = (0xffu << (8 - rest)) & 0xffu;
    return (block.base.bytes[whole] & mask) == (a.bytes[whole] & mask);
}

} // namespace

std::string entry_error(const std::string &entry) {
    if (entry == "*" || entry == k_unix || parse_block(entry))
        return {};
    return "'" + entry + "' is none of *, unix:, an IPv4 or IPv6 address, or one with /prefix "
                         "(0-32 for IPv4, 0-128 for IPv6)";
}

bool matches(const std::vector<std::string> &entries, const std::string &remote) {
    std::optional<Address> address = parse_address(remote);
    if (address)
        unmap(*address);
    for (const std::string &entry : entries) {
        if (entry == "*" || (entry == k_unix && remote == k_unix))
            return true;
        if (!address)
            continue;
        std::optional<Block> block = parse_block(entry);
        if (block && in_block(*block, *address))
            return true;
    }
    return false;
}

} // namespace cms::address_list
