// The `order-db` MCP server the ProcessOrder agent uses: a stdio MCP server (official SDK, low-level
// `Server` with plain JSON Schemas) over a small in-memory inventory. The host starts it when it
// starts (concord.config.json5 `mcpServers`), lists its tools, and offers ProcessOrder the two its
// definition names; `cancel_all_orders` exists but is not offered to the model.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const stock = new Map([
  ['WIDGET-1', 120],
  ['GADGET-7', 4],
]);
const orders = [];

const item = {
  type: 'object',
  properties: {
    sku: { type: 'string', description: 'Stock keeping unit, e.g. WIDGET-1' },
    quantity: { type: 'integer', minimum: 1 },
  },
  required: ['sku', 'quantity'],
  additionalProperties: false,
};

const tools = [
  {
    name: 'validate_inventory',
    description: 'Checks that a quantity of an item is in stock',
    inputSchema: item,
  },
  { name: 'create_order', description: 'Creates an order and reserves its stock', inputSchema: item },
  { name: 'cancel_all_orders', description: 'Cancels every order', inputSchema: { type: 'object' } },
];

const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

const server = new Server({ name: 'order-db', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
  const { sku, quantity } = params.arguments ?? {};
  const available = stock.get(sku) ?? 0;
  switch (params.name) {
    case 'validate_inventory':
      return text({ sku, requested: quantity, available, inStock: available >= quantity });
    case 'create_order': {
      if (available < quantity)
        return { ...text({ error: `only ${available} of ${sku} in stock` }), isError: true };
      stock.set(sku, available - quantity);
      const order = { id: `ORD-${orders.length + 1}`, sku, quantity };
      orders.push(order);
      return text(order);
    }
    case 'cancel_all_orders':
      orders.length = 0;
      return text({ canceled: true });
    default:
      return { ...text({ error: `no tool ${params.name}` }), isError: true };
  }
});
await server.connect(new StdioServerTransport());
