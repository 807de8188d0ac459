"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// End-to-end tests start several service processes per file.
jest.setTimeout(90000);
//# sourceMappingURL=timeout-e2e.js.map