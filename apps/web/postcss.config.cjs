// Mantine's mixins (light-dark, breakpoints, rem) in our CSS modules need its PostCSS preset.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
