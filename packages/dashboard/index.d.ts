/** Where the built dashboard (index.html + hashed assets) lives; the server serves it at /dashboard. */
export declare const dashboardDir: string
