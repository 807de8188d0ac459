"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// Integration tests talk to real servers; a slow CI machine must not turn that into flakes.
jest.setTimeout(30000);
//# sourceMappingURL=timeout-integration.js.map