/** The 1.0 codec tests' fixtures. */
// Fixtures are wire JSON, exactly as a conformant 1.0 peer would send them.
export const userMessage = {
  messageId: 'msg-1',
  role: 'ROLE_USER',
  parts: [
    { text: 'Find me a red sedan', mediaType: 'text/plain' },
    { raw: 'aGVsbG8gd29ybGQ=', filename: 'hello.txt', mediaType: 'text/plain' },
    { url: 'https://example.com/brochure.pdf', filename: 'brochure.pdf', mediaType: 'application/pdf' },
    { data: { make: 'Volvo', budget: 30000, features: ['awd', null] }, metadata: { schema: 'car/v1' } },
  ],
  contextId: 'ctx-1',
  taskId: 'task-1',
  referenceTaskIds: ['task-0'],
  extensions: ['https://example.com/ext/aump/v1'],
  metadata: { trace: 'abc' },
};

export const agentMessage = {
  messageId: 'msg-2',
  role: 'ROLE_AGENT',
  parts: [{ text: 'Working on it' }, { data: [1, 'two', { three: 3 }] }, { data: null }, { raw: 'AAEC_-8' }],
  contextId: 'ctx-1',
  taskId: 'task-1',
};

export const task = {
  id: 'task-1',
  contextId: 'ctx-1',
  status: {
    state: 'TASK_STATE_COMPLETED',
    message: { messageId: 'msg-3', role: 'ROLE_AGENT', parts: [{ text: 'Done' }] },
    timestamp: '2026-03-12T10:00:00.000Z',
  },
  artifacts: [
    {
      artifactId: 'art-1',
      name: 'shortlist',
      description: 'Three matching cars',
      parts: [{ data: { cars: ['a', 'b', 'c'] } }, { text: 'see above', metadata: { lang: 'en' } }],
      metadata: { rank: 1 },
      extensions: ['https://example.com/ext/aap/v0.1'],
    },
  ],
  history: [userMessage, agentMessage],
  metadata: { tenantHint: 'dealer-7' },
};

export const agentCard = {
  name: 'Dealer agent',
  description: 'Finds cars',
  supportedInterfaces: [
    { url: 'https://dealer.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    {
      url: 'https://dealer.example.com/rest',
      protocolBinding: 'HTTP+JSON',
      tenant: 'north',
      protocolVersion: '1.0',
    },
    { url: 'https://dealer.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
  ],
  provider: { url: 'https://example.com', organization: 'Example Motors' },
  version: '2.1.0',
  documentationUrl: 'https://example.com/docs',
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extensions: [
      {
        uri: 'https://example.com/ext/aump/v1',
        description: 'Mandates',
        required: true,
        params: { level: 2 },
      },
      { uri: 'https://example.com/ext/plain' },
    ],
    extendedAgentCard: true,
  },
  securitySchemes: {
    apiKey: { apiKeySecurityScheme: { description: 'Key in header', location: 'header', name: 'X-API-Key' } },
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    oauthCode: {
      oauth2SecurityScheme: {
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.example.com/authorize',
            tokenUrl: 'https://auth.example.com/token',
            refreshUrl: 'https://auth.example.com/refresh',
            scopes: { read: 'Read inventory', write: 'Reserve cars' },
            pkceRequired: true,
          },
        },
        oauth2MetadataUrl: 'https://auth.example.com/.well-known/oauth-authorization-server',
      },
    },
    oauthClient: {
      oauth2SecurityScheme: {
        flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: {} } },
      },
    },
    oauthDevice: {
      oauth2SecurityScheme: {
        description: 'For kiosks',
        flows: {
          deviceCode: {
            deviceAuthorizationUrl: 'https://auth.example.com/device',
            tokenUrl: 'https://auth.example.com/token',
            scopes: { read: 'Read inventory' },
          },
        },
      },
    },
    oauthImplicit: {
      oauth2SecurityScheme: {
        flows: {
          implicit: { authorizationUrl: 'https://auth.example.com/authorize', scopes: { read: 'r' } },
        },
      },
    },
    oauthPassword: {
      oauth2SecurityScheme: {
        flows: {
          password: { tokenUrl: 'https://auth.example.com/token', refreshUrl: 'https://r', scopes: {} },
        },
      },
    },
    oidc: {
      openIdConnectSecurityScheme: { openIdConnectUrl: 'https://auth.example.com/.well-known/openid' },
    },
    mtls: { mtlsSecurityScheme: { description: 'Client certificates' } },
    mtlsBare: { mtlsSecurityScheme: {} },
  },
  securityRequirements: [
    { schemes: { oauthCode: { list: ['read'] }, apiKey: {} } },
    { schemes: { mtls: {} } },
  ],
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['application/json'],
  skills: [
    {
      id: 'search',
      name: 'Search inventory',
      description: 'Searches cars',
      tags: ['cars', 'search'],
      examples: ['red sedan under 30k'],
      inputModes: ['text/plain'],
      outputModes: ['application/json'],
      securityRequirements: [{ schemes: { bearer: {} } }],
    },
    { id: 'reserve', name: 'Reserve', description: 'Reserves a car', tags: ['cars'] },
  ],
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2lnbmF0dXJl', header: { kid: 'key-1' } }],
  iconUrl: 'https://example.com/icon.png',
};
