// For the validation unit tests: the field → text object a client gets for an ApiError, rendered
// with the shipped (Chinese) message table, so that tests compare the texts Lin CMS clients see.
#pragma once

#include <json/json.h>

#include "base/errors.h"

inline Json::Value shipped_field_texts(const cms::ApiError &error) {
    static const cms::Messages messages = cms::Messages::load("conf/code-message.properties");
    return cms::error_envelope(error, messages, "")["message"];
}
