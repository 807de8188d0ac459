// End-to-end tests start several service processes per file.
jest.setTimeout(90000);
