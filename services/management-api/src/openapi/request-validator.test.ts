import { managementApiDocument } from './document';
import { createRequestValidator } from './request-validator';

describe('requests checked against the OpenAPI document', () => {
  it('every operation’s parameters and body compile under ajv’s strict mode (each is compiled on its first request)', () => {
    const validator = createRequestValidator(managementApiDocument);
    const operations = validator.operations();
    expect(operations.length).toBeGreaterThan(50);
    for (const { operationId } of operations)
      expect(() => validator.validate(operationId, { params: {}, query: {}, body: undefined })).not.toThrow();
  });

  it('an operation the document does not have is refused at once, before any request', () => {
    const validator = createRequestValidator(managementApiDocument);
    expect(() => validator.operation('noSuchOperation')).toThrow(
      'operation noSuchOperation is not in the OpenAPI document',
    );
  });
});
