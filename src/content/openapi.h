// The OpenAPI 3.1 description of the declared collections (GET /openapi.json), made from the
// same declaration the routes are: paths, queries, bodies and answers. Pure: no SQL, no HTTP.
#pragma once

#include <json/json.h>

#include "content/declaration.h"

namespace cms::content {

// The document of every live collection of declaration: its seven routes, the schema of a row
// as answered (hidden fields absent, additionalProperties false), of a write body and of a page.
Json::Value openapi(const Declaration &declaration);

} // namespace cms::content
