/**
 * The JSON Schema of a route table (`schemas/<family>/v1/routes.json`, route-table.ts): what lint checks every table
 * against before the generator reads it. A module rather than a .json file so that the compiled generator carries it.
 */
export const ROUTE_TABLE_SCHEMA = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://wopkit.dev/generator/route-table.schema.json",
  "title": "RouteTable",
  "description": "A reference host's route table for one family and major (schemas/<family>/<major>/routes.json): corpus data the generator reads (the OpenAPI document, generated/routes/) and the host, the conformance suite and the site read through generated/routes/. Not a protocol shape: it describes this toolkit's host.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "commonErrors",
    "parameters",
    "routes"
  ],
  "properties": {
    "$schema": {
      "description": "The path of this schema, for editors.",
      "type": "string"
    },
    "description": {
      "description": "What the table covers, in a few sentences.",
      "type": "string"
    },
    "commonErrors": {
      "description": "Error statuses every route shares, by what the route does; every table of the corpus must say the same (one host, one set of shared answers).",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "always",
        "authenticated",
        "body"
      ],
      "properties": {
        "always": {
          "description": "Statuses any request can meet (an unreadable target, a timeout, a bound, a fault, a store that cannot take it now).",
          "$ref": "#/$defs/Statuses"
        },
        "authenticated": {
          "description": "Statuses of a route that needs a key.",
          "$ref": "#/$defs/Statuses"
        },
        "body": {
          "description": "Statuses of a route that reads a body or whose method carries one.",
          "$ref": "#/$defs/Statuses"
        }
      }
    },
    "parameters": {
      "description": "Every path, query and header parameter the rows name, by name (a header by its lower-case name): one name means one thing on every route that reads it.",
      "type": "object",
      "propertyNames": {
        "pattern": "^[A-Za-z][A-Za-z0-9-]*$"
      },
      "additionalProperties": {
        "$ref": "#/$defs/Parameter"
      }
    },
    "routes": {
      "description": "Every route, by its name (the OpenAPI operationId).",
      "type": "object",
      "propertyNames": {
        "pattern": "^[a-z][A-Za-z0-9]*$"
      },
      "additionalProperties": {
        "$ref": "#/$defs/Route"
      }
    }
  },
  "$defs": {
    "ErrorStatus": {
      "description": "An HTTP status the host answers with the error envelope.",
      "enum": [
        400,
        401,
        403,
        404,
        408,
        409,
        413,
        415,
        422,
        429,
        500,
        501,
        503
      ]
    },
    "Statuses": {
      "description": "A set of error statuses, ascending.",
      "type": "array",
      "items": {
        "$ref": "#/$defs/ErrorStatus"
      },
      "uniqueItems": true
    },
    "SchemaTitle": {
      "description": "The title of a corpus schema (a generated type and validator); lint checks that the corpus defines it.",
      "type": "string",
      "pattern": "^[A-Z][A-Za-z0-9]*$"
    },
    "Parameter": {
      "description": "A parameter's schema and meaning.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "schema",
        "description"
      ],
      "properties": {
        "schema": {
          "description": "An inline schema (a string or an integer, with bounds), or the title of a corpus schema (an enum the schemas already define).",
          "oneOf": [
            {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "type"
              ],
              "properties": {
                "type": {
                  "description": "string or integer (an integer is converted from its decimal text once, by the host's validator compiler).",
                  "enum": [
                    "string",
                    "integer"
                  ]
                },
                "minimum": {
                  "description": "Least integer value.",
                  "type": "integer"
                },
                "maximum": {
                  "description": "Greatest integer value.",
                  "type": "integer"
                },
                "minLength": {
                  "description": "Least string length.",
                  "type": "integer",
                  "minimum": 0
                },
                "maxLength": {
                  "description": "Greatest string length.",
                  "type": "integer",
                  "minimum": 0
                },
                "pattern": {
                  "description": "A regular expression a string value must match (ECMA-262, unanchored unless it says ^ and $).",
                  "type": "string",
                  "format": "regex"
                }
              }
            },
            {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "title"
              ],
              "properties": {
                "title": {
                  "$ref": "#/$defs/SchemaTitle"
                }
              }
            }
          ]
        },
        "description": {
          "description": "What the parameter means (the OpenAPI parameter description).",
          "type": "string",
          "minLength": 1
        }
      }
    },
    "Route": {
      "description": "One route.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "kind",
        "method",
        "path",
        "response",
        "role",
        "summary",
        "errors"
      ],
      "properties": {
        "kind": {
          "description": "protocol: a route a client uses; seam: a test fixture under /v1/host/sample/; upstream-seam: a test seam at upstream's /v1/test/ paths; health: what a supervisor or load balancer asks.",
          "enum": [
            "protocol",
            "seam",
            "upstream-seam",
            "health"
          ]
        },
        "method": {
          "description": "The HTTP method.",
          "enum": [
            "GET",
            "POST",
            "PATCH",
            "DELETE"
          ]
        },
        "path": {
          "description": "The path, with {name} for a path parameter; a last segment {name}:action is an action on a resource (the parameter is matched whole).",
          "type": "string",
          "pattern": "^/[A-Za-z0-9._~{}:/-]*$"
        },
        "query": {
          "description": "Query parameters the route reads, in the order the docs list them (names of the parameters table).",
          "type": "array",
          "items": {
            "type": "string"
          },
          "uniqueItems": true
        },
        "headers": {
          "description": "Request headers the route reads (lower-case names of the parameters table); each is optional.",
          "type": "array",
          "items": {
            "type": "string",
            "pattern": "^[a-z][a-z0-9-]*$"
          },
          "uniqueItems": true
        },
        "request": {
          "description": "Schema title of the request body (absent: the route reads no body).",
          "$ref": "#/$defs/SchemaTitle"
        },
        "bodyOptional": {
          "description": "The body may be left out entirely (read as {}).",
          "const": true
        },
        "response": {
          "description": "Schema title of a successful answer.",
          "$ref": "#/$defs/SchemaTitle"
        },
        "alsoResponds": {
          "description": "Other shapes a successful answer can take.",
          "type": "array",
          "items": {
            "$ref": "#/$defs/SchemaTitle"
          },
          "minItems": 1
        },
        "status": {
          "description": "Status of a successful answer when it is not 200.",
          "const": 201
        },
        "public": {
          "description": "Served without the Bearer token.",
          "const": true
        },
        "cached": {
          "description": "Served with Cache-Control public max-age, a strong content-hash ETag and 304 for a matching If-None-Match.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "maxAgeSeconds"
          ],
          "properties": {
            "maxAgeSeconds": {
              "description": "The max-age of Cache-Control.",
              "type": "integer",
              "minimum": 0
            }
          }
        },
        "role": {
          "description": "The least role a key needs: tenant routes serve tenant keys bound to their tenant; operator routes need an operator key.",
          "enum": [
            "tenant",
            "operator"
          ]
        },
        "summary": {
          "description": "What the route does, in one line (the OpenAPI operation summary).",
          "type": "string",
          "minLength": 1
        },
        "errorBodies": {
          "description": "Error statuses this route answers with another body than the error envelope, by status: the schema title of that body (the readiness probe's 503 is a HostHealth saying why).",
          "type": "object",
          "propertyNames": { "pattern": "^[45][0-9][0-9]$" },
          "additionalProperties": { "$ref": "#/$defs/SchemaTitle" }
        },
        "errors": {
          "description": "Error statuses this route answers besides the common ones, each for a reason its handler or binding has.",
          "$ref": "#/$defs/Statuses"
        }
      }
    }
  }
} as const;
