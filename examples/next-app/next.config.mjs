// Next's defaults serve this app; only the framework's name is kept out of the answers.
const config = {
  poweredByHeader: false,
};

export default config;
