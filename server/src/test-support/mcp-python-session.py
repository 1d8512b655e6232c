"""One MCP session with the official Python SDK (PyPI `mcp`) against the console.

Used by server/src/modules/mcp/mcp-python.e2e.test.ts. Connects over Streamable HTTP with an API key,
initializes, lists the tools, calls one, leaves the session and prints one JSON line saying what it saw.

Usage: python mcp-python-session.py <endpoint URL> <API key> <tool name>
"""

import asyncio
import json
import sys
import warnings

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client


async def main(url: str, key: str, tool: str) -> None:
    # streamablehttp_client is the SDK's documented client in every 1.x release; newer releases mark it
    # deprecated in favour of streamable_http_client, which takes an httpx client instead of headers.
    warnings.simplefilter("ignore", DeprecationWarning)
    async with streamablehttp_client(url, headers={"X-API-Key": key}, timeout=30) as (read, write, _):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools = (await session.list_tools()).tools
            result = await session.call_tool(tool, {})
            texts = [c.text for c in result.content if getattr(c, "type", "") == "text"]
    print(
        json.dumps(
            {
                "server": init.serverInfo.name,
                "protocol": init.protocolVersion,
                "tools": len(tools),
                "listed": any(t.name == tool for t in tools),
                "is_error": result.isError,
                "text": texts[0] if texts else "",
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
