"""The service's version, as the API's health answer, the OpenAPI document, the MCP server, its
server card and the A2A agent card state it."""

VERSION = "1.0.0"
