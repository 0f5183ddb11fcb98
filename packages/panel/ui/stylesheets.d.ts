/** Stylesheets are bundled by esbuild into panel.css; importing one has no value in code. */
declare module '*.css';
