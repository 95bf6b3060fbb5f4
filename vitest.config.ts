import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    // Tests that start the mock or run the generator spawn processes; give them room.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
