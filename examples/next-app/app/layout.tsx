// The page frame: a title and links. No web fonts (nothing is downloaded at build time).
import type { ReactNode } from "react";

export const metadata = { title: "stackkit on Next.js" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "2rem auto", padding: "0 1rem" }}>
        <nav style={{ display: "flex", gap: "1rem" }}>
          <a href="/">Home</a>
          <a href="/dashboard">Dashboard</a>
        </nav>
        <main>{children}</main>
      </body>
    </html>
  );
}
