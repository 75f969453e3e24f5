// Fuzz target: configuration text through parse_config, then check_config and config_value for
// every key, as `cms-fcgi -t` and `--get` do at start-up.
#include "base/config.h"

#include <cstdint>
#include <string>

// Treats data as the text of a config file.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cms::Config config;
    try {
        config = cms::parse_config(std::string(reinterpret_cast<const char *>(data), size), "fuzz");
    } catch (const cms::ConfigError &) {
        return 0;
    }
    try {
        cms::check_config(config);
    } catch (const cms::ConfigError &) {
    }
    for (const std::string &key : cms::config_keys())
        cms::config_value(config, key);
    return 0;
}
